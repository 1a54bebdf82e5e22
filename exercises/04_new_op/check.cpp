// The check of chapter 4's exercise: softplus's values (by hand, and where the naive formula
// overflows or rounds to 0), its node, and gradcheck in float64.
#include "tests/catch.h"

#include <cmath>
#include <string>

#include "autograd/gradcheck.h"
#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "ops/ops.h"
#include "softplus.h"

using namespace attic;
using exercise::softplus;

TEST_CASE("softplus by hand: log(1 + e^x) at x = -2, 0, 3") {
  Tensor y = softplus(tensor({-2.0, 0.0, 3.0}, kFloat64));
  REQUIRE(y.shape() == Shape{3});
  CHECK(y[0].item<double>() == Approx(0.1269280110429725).epsilon(1e-12));  // log(1 + e^-2)
  CHECK(y[1].item<double>() == Approx(0.6931471805599453).epsilon(1e-12));  // log 2
  CHECK(y[2].item<double>() == Approx(3.0485873515737420).epsilon(1e-12));  // 3 + log(1 + e^-3)
}

TEST_CASE("softplus is stable: no inf for a large x, no 0 for a very negative x") {
  // float32: e^100 is inf, so the naive log(1 + e^x) gives inf; softplus(100) is 100.
  Tensor y = softplus(tensor({100.0, 20.0, -100.0}));
  CHECK(y[0].item<float>() == 100.0f);
  CHECK(y[1].item<float>() == Approx(20.0).epsilon(1e-6));
  CHECK(y[2].item<float>() >= 0.0f);
  CHECK(y[2].item<float>() < 1e-40f);
  // float64: 1 + e^-50 rounds to 1, so the naive formula gives 0; the true value is e^-50
  // to 22 digits, 1.9287e-22.
  Tensor z = softplus(tensor({-50.0, 800.0}, kFloat64));
  CHECK(z[0].item<double>() == Approx(std::exp(-50.0)).epsilon(1e-12));
  CHECK(z[1].item<double>() == 800.0);
}

TEST_CASE("softplus keeps the shape and reads a non-contiguous input") {
  manual_seed(0);
  Tensor x = randn({3, 4}, kFloat64);
  Tensor xt = x.t();  // [4, 3], strides [1, 4]
  REQUIRE_FALSE(xt.is_contiguous());
  Tensor y = softplus(xt);
  REQUIRE(y.shape() == Shape{4, 3});
  CHECK(max(abs(y - log(1.0 + exp(xt)))).item<double>() < 1e-12);
  CHECK(softplus(scalar_tensor(0.0, kFloat64)).shape() == Shape{});
}

TEST_CASE("softplus records one SoftplusBackward node, only when x needs a gradient") {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = softplus(x);
  REQUIRE(y.grad_fn() != nullptr);
  CHECK(std::string(y.grad_fn()->name()) == "SoftplusBackward");
  CHECK(y.grad_fn()->inputs.size() == 1);
  CHECK_FALSE(softplus(tensor({1.0, 2.0})).requires_grad());
  NoGradGuard no_grad;
  CHECK(softplus(x).grad_fn() == nullptr);
}

TEST_CASE("softplus's gradient is σ(x): by hand, and at large |x|") {
  Tensor x = tensor({-2.0, 0.0, 3.0}, kFloat64).requires_grad_();
  sum(softplus(x)).backward();
  REQUIRE(x.grad().defined());
  CHECK(x.grad()[0].item<double>() == Approx(0.11920292202211755).epsilon(1e-12));  // σ(-2)
  CHECK(x.grad()[1].item<double>() == Approx(0.5).epsilon(1e-12));                  // σ(0)
  CHECK(x.grad()[2].item<double>() == Approx(0.95257412682243336).epsilon(1e-12));  // σ(3)
  Tensor big = tensor({100.0, -100.0}).requires_grad_();
  sum(softplus(big)).backward();
  CHECK(big.grad()[0].item<float>() == Approx(1.0).margin(1e-6));
  CHECK(big.grad()[1].item<float>() == Approx(0.0).margin(1e-6));
}

TEST_CASE("softplus passes gradcheck in float64") {
  manual_seed(1);
  auto f = [](const std::vector<Tensor>& in) { return softplus(in[0]); };
  CHECK(autograd::gradcheck(f, {(randn({3, 4}, kFloat64) * 3).requires_grad_()}));
  // Inside a bigger function, with a transposed input: sum(softplus(x^T) w).
  auto g = [](const std::vector<Tensor>& in) { return sum(matmul(softplus(in[0].t()), in[1])); };
  CHECK(autograd::gradcheck(g, {randn({3, 4}, kFloat64).requires_grad_(),
                                randn({3, 2}, kFloat64).requires_grad_()}));
}

TEST_CASE("softplus refuses an integer tensor, naming itself") {
  CHECK_THROWS_WITH(softplus(tensor({1.0, 2.0}, kInt64)), Catch::Matchers::ContainsSubstring("softplus"));
}
