// The check of chapter 16's exercise: anomaly_report names the division that makes the
// NaN; normalize with eps is finite, has the right values, and a gradient that anomaly mode
// accepts and gradcheck confirms.
#include "tests/catch.h"

#include <cmath>

#include "autograd/anomaly_mode.h"
#include "autograd/gradcheck.h"
#include "normalize.h"
#include "ops/ops.h"

using namespace attic;

TEST_CASE("anomaly_report names the op that makes the first NaN") {
  // Anomaly mode checks the ops that record a node, so x must require grad.
  const Tensor x = tensor({{1, 2, 3}, {5, 5, 5}}).requires_grad_();  // row 1: var = 0
  const std::string report = anomaly_report(x);
  INFO(report);
  // Which op: the division; where: row 1, flat index 3; what came in: a Sqrt.
  CHECK(report.find("forward of Div produced 3 NaN among 6 values") != std::string::npos);
  CHECK(report.find("the first at flat index 3") != std::string::npos);
  CHECK(report.find("Sqrt [2, 1]") != std::string::npos);
  // No NaN, no error: the report is empty.
  CHECK(anomaly_report(tensor({{1, 2, 3}, {4, 6, 8}}).requires_grad_()) == "");
  CHECK_FALSE(autograd::AnomalyMode::is_enabled());  // the guard ended with the call
}

TEST_CASE("normalize with eps: values within 1e-4") {
  const Tensor n = normalize(tensor({{1, 2, 3}, {5, 5, 5}}), 1e-5);
  REQUIRE(n.shape() == Shape{2, 3});
  // Row 0: centered [-1, 0, 1], var 2/3, so ±1/√(2/3 + 1e-5) = ±1.22473; row 1: zeros.
  const double expected[2][3] = {{-1.22473, 0, 1.22473}, {0, 0, 0}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      const double v = n[i][j].item<double>();
      INFO("n[" << i << ", " << j << "] = " << v);
      CHECK(std::isfinite(v));
      CHECK(std::abs(v - expected[i][j]) < 1e-4);
    }
}

TEST_CASE("normalize's backward is finite under anomaly mode and passes gradcheck") {
  Tensor x = tensor({{1, 2, 3}, {5, 5, 5}}).requires_grad_();
  const Tensor w = tensor({{1, -2, 3}, {0.5, 1, -1}});
  {
    autograd::DetectAnomalyGuard anomaly;  // throws at the first NaN or Inf of the backward
    CHECK_NOTHROW(sum(normalize(x, 1e-5) * w).backward());
  }
  REQUIRE(x.grad().defined());
  CHECK(std::isfinite(sum(x.grad()).item<double>()));
  // Finite differences in float64, on rows with var > 0 (atol 1e-5, rtol 1e-3).
  manual_seed(16);
  const Tensor xd = randn({3, 4}, kFloat64).requires_grad_();
  CHECK(autograd::gradcheck([](const std::vector<Tensor>& in) { return normalize(in[0], 1e-5); },
                            {xd}));
}
