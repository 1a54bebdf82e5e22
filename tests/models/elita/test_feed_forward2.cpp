// ELiTA's FeedForward2 (models/elita/feed_forward2.h): equal to its outer-product form
// y_k = Σ_{i,j} u_i g_j W3[i, j, k] + b3_k written out as loops; 9W² + 10W + 8 parameters;
// Keras's init; gradcheck.
#include <cmath>

#include "helpers.h"
#include "models/elita/feed_forward2.h"

using namespace attic;
using models::elita::FeedForward2;
using attic::testing::error_message;

namespace {
double swish(double z) { return z / (1 + std::exp(-z)); }
}  // namespace

TEST_CASE("FeedForward2 equals Σ_ij u_i g_j W3[i, j, k] + b3_k, written out", "[elita]") {
  manual_seed(1);
  const int64_t W = 5, F = 3;
  FeedForward2 ff(W, F);
  ff.b1 = randn({W}) * 0.1;  // Keras starts them at 0; any value will do here
  ff.b2 = randn({F}) * 0.1;
  ff.b3 = randn({W}) * 0.1;
  const Tensor x = randn({2, 4, W});
  const std::vector<double> y = ff.forward(x).to_vector<double>();
  const std::vector<double> xs = x.to_vector<double>(), w1 = ff.w1.to_vector<double>(),
                            w2 = ff.w2.to_vector<double>(), w3 = ff.w3.to_vector<double>(),
                            b1 = ff.b1.to_vector<double>(), b2 = ff.b2.to_vector<double>(),
                            b3 = ff.b3.to_vector<double>();
  double worst = 0;
  for (int64_t row = 0; row < 8; ++row) {
    const double* xr = &xs[size_t(row * W)];
    std::vector<double> u(W), g(F);
    for (int64_t i = 0; i < W; ++i) {
      double z = b1[size_t(i)];
      for (int64_t w = 0; w < W; ++w) z += xr[w] * w1[size_t(w * W + i)];
      u[size_t(i)] = swish(z);
    }
    for (int64_t j = 0; j < F; ++j) {
      double z = b2[size_t(j)];
      for (int64_t w = 0; w < W; ++w) z += xr[w] * w2[size_t(w * F + j)];
      g[size_t(j)] = swish(z);
    }
    for (int64_t k = 0; k < W; ++k) {
      double want = b3[size_t(k)];
      for (int64_t i = 0; i < W; ++i)
        for (int64_t j = 0; j < F; ++j) want += u[size_t(i)] * g[size_t(j)] * w3[size_t((i * F + j) * W + k)];
      worst = std::max(worst, std::abs(want - y[size_t(row * W + k)]));
    }
  }
  CHECK(worst < 1e-5);
}

TEST_CASE("FeedForward2 has 9W² + 10W + 8 parameters at F = 8", "[elita]") {
  for (int64_t W : {1, 16, 96, 128}) {
    FeedForward2 ff(W);
    CHECK(ff.num_parameters() == 9 * W * W + 10 * W + 8);
  }
}

TEST_CASE("FeedForward2: Keras's names, shapes and init", "[elita]") {
  FeedForward2 ff(32, 8);
  const nn::NamedTensors p = ff.named_parameters();
  const std::vector<std::pair<std::string, Shape>> want = {
      {"w1", {32, 32}}, {"w2", {32, 8}}, {"w3", {32, 8, 32}}, {"b1", {32}}, {"b2", {8}}, {"b3", {32}}};
  REQUIRE(p.size() == want.size());
  const double bound[3] = {std::sqrt(6.0 / 64), std::sqrt(6.0 / 40), std::sqrt(6.0 / (32 * 8 + 32 * 32))};
  for (size_t i = 0; i < want.size(); ++i) {
    CHECK(p[i].first == want[i].first);
    CHECK(p[i].second.shape() == want[i].second);
    const double m = max(abs(p[i].second)).item<double>();
    if (i < 3) {
      CHECK(m <= bound[i]);
      CHECK(m > 0.8 * bound[i]);
    } else {
      CHECK(m == 0.0);
    }
  }
}

TEST_CASE("gradcheck of FeedForward2", "[elita][gradcheck]") {
  manual_seed(2);
  FeedForward2 ff(4, 3);
  std::vector<Tensor*> fields = {&ff.w1, &ff.w2, &ff.w3, &ff.b1, &ff.b2, &ff.b3};
  std::vector<Tensor> inputs;
  for (Tensor* f : fields) inputs.push_back(randn(f->shape(), kFloat64).requires_grad_());
  inputs.push_back(randn({2, 3, 4}, kFloat64).requires_grad_());
  CHECK(attic::testing::gradcheck(
      [&](const std::vector<Tensor>& in) {
        for (size_t i = 0; i < fields.size(); ++i) *fields[i] = in[i];
        return ff.forward(in.back());
      },
      inputs));
}

TEST_CASE("FeedForward2: bad sizes are clear errors", "[elita][errors]") {
  CHECK(error_message([] { FeedForward2 ff(0, 8); }) ==
        "FeedForward2: width and factor must be positive, got 0 and 8");
  FeedForward2 ff(4, 2);
  CHECK(error_message([&] { ff.forward(zeros({2, 5})); }) == "FeedForward2: x must be [..., 4], got [2, 5]");
}
