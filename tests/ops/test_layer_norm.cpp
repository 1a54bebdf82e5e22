// layer_norm: hand values, optional weight and bias, gradcheck, the composed formula,
// a large mean, errors.
#include <cmath>

#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {

// The same normalization written with public ops: (x - mean) · rsqrt(var + eps) · w + b,
// var biased (correction 0). Its gradient comes from the ops' own backward nodes.
Tensor composed(const Tensor& x, const Tensor& w, const Tensor& b, double eps) {
  Tensor m = mean(x, {-1}, /*keepdim=*/true);
  Tensor v = var(x, {-1}, /*correction=*/0, /*keepdim=*/true);
  Tensor y = (x - m) * rsqrt(v + eps);
  if (w.defined()) y = y * w;
  if (b.defined()) y = y + b;
  return y;
}

}  // namespace

TEST_CASE("layer_norm normalizes each row by hand", "[ops][layer_norm]") {
  // row [1, 2, 3]: mean 2, var (1 + 0 + 1)/3 = 2/3, so (x - 2)/√(2/3) = [-1.224745, 0, 1.224745]
  // row [2, 4, 6]: mean 4, var (4 + 0 + 4)/3 = 8/3, so (x - 4)/√(8/3) = the same values
  Tensor x = tensor({{1, 2, 3}, {2, 4, 6}});
  Tensor y = layer_norm(x, Tensor(), Tensor(), /*eps=*/0.0);
  const double r = std::sqrt(1.5);  // 1/√(2/3) = 1.224745
  CHECK(y.shape() == Shape{2, 3});
  CHECK_THAT(values(y), ApproxValues({-r, 0, r, -r, 0, r}, 1e-5));
}

TEST_CASE("layer_norm applies weight and bias after normalizing", "[ops][layer_norm]") {
  // normalized rows are [-1.224745, 0, 1.224745]; w = [2, 0.5, -1], b = [0.1, 0.2, 0.3]:
  //   -1.224745·2 + 0.1 = -2.349490,  0·0.5 + 0.2 = 0.2,  1.224745·(-1) + 0.3 = -0.924745
  Tensor x = tensor({{1, 2, 3}, {2, 4, 6}});
  Tensor w = tensor({2, 0.5, -1});
  Tensor b = tensor({0.1, 0.2, 0.3});
  const double r = std::sqrt(1.5);
  const std::vector<double> row = {-2 * r + 0.1, 0.2, -r + 0.3};
  CHECK_THAT(values(layer_norm(x, w, b, 0.0)),
             ApproxValues({row[0], row[1], row[2], row[0], row[1], row[2]}, 1e-5));
  // weight only: [-2.449490, 0, -1.224745]; bias only: [-1.124745, 0.2, 1.524745]
  CHECK_THAT(values(layer_norm(x, w, Tensor(), 0.0)),
             ApproxValues({-2 * r, 0, -r, -2 * r, 0, -r}, 1e-5));
  CHECK_THAT(values(layer_norm(x, Tensor(), b, 0.0)),
             ApproxValues({-r + 0.1, 0.2, r + 0.3, -r + 0.1, 0.2, r + 0.3}, 1e-5));
}

TEST_CASE("layer_norm adds eps to the variance", "[ops][layer_norm]") {
  // row [1, 3]: mean 2, var 1; with eps = 1: (x - 2)/√2 = [-0.707107, 0.707107]
  Tensor x = tensor({1, 3});
  CHECK_THAT(values(layer_norm(x, Tensor(), Tensor(), 1.0)),
             ApproxValues({-std::sqrt(0.5), std::sqrt(0.5)}, 1e-6));
  // default eps 1e-5: 1/√(1 + 1e-5) = 0.999995
  CHECK_THAT(values(layer_norm(x, Tensor(), Tensor())),
             ApproxValues({-0.999995, 0.999995}, 1e-6));
}

TEST_CASE("layer_norm of a 3-D input normalizes over the last dim only", "[ops][layer_norm]") {
  // a pair [a, b] has mean (a+b)/2 and var ((a-b)/2)², so a normalizes to sign(a - b)
  Tensor x = tensor({{{1, 3}, {5, 4}}, {{0, 0.5}, {-2, -7}}}, kFloat64);
  Tensor y = layer_norm(x, Tensor(), Tensor(), 0.0);
  CHECK(y.shape() == Shape{2, 2, 2});
  CHECK(y.dtype() == kFloat64);
  CHECK_THAT(values(y), ApproxValues({-1, 1, 1, -1, -1, 1, 1, -1}, 1e-12));
}

TEST_CASE("layer_norm gradcheck of x, weight and bias together", "[ops][layer_norm][gradcheck]") {
  Tensor x = leaf64({3, 5}), w = leaf64({5}), b = leaf64({5});
  CHECK(gradcheck([](const std::vector<Tensor>& in) { return layer_norm(in[0], in[1], in[2]); },
                  {x, w, b}));
  // 3-D input: weight and bias broadcast over both leading dims
  Tensor x3 = leaf64({2, 3, 4}), w3 = leaf64({4}), b3 = leaf64({4});
  CHECK(gradcheck([](const std::vector<Tensor>& in) { return layer_norm(in[0], in[1], in[2]); },
                  {x3, w3, b3}));
}

TEST_CASE("layer_norm gradcheck with a non-contiguous x", "[ops][layer_norm][gradcheck]") {
  Tensor x = noncontiguous_leaf64({4, 6}), w = leaf64({6}), b = leaf64({6});
  CHECK(gradcheck([](const std::vector<Tensor>& in) { return layer_norm(in[0], in[1], in[2]); },
                  {x, w, b}));
}

TEST_CASE("layer_norm gradcheck without weight and bias", "[ops][layer_norm][gradcheck]") {
  Tensor x = leaf64({3, 4});
  CHECK(gradcheck([](const std::vector<Tensor>& in) {
    return layer_norm(in[0], Tensor(), Tensor());
  }, {x}));
  // 1-D input, and weight without bias
  Tensor x1 = leaf64({5}), w1 = leaf64({5});
  CHECK(gradcheck([](const std::vector<Tensor>& in) {
    return layer_norm(in[0], in[1], Tensor());
  }, {x1, w1}));
}

TEST_CASE("layer_norm gradcheck when only weight and bias require grad",
          "[ops][layer_norm][gradcheck]") {
  Tensor x = randn({4, 3}, kFloat64), w = leaf64({3}), b = leaf64({3});
  CHECK(gradcheck([](const std::vector<Tensor>& in) { return layer_norm(in[0], in[1], in[2]); },
                  {x, w, b}));
}

TEST_CASE("layer_norm matches the composed formula forward and backward", "[ops][layer_norm]") {
  const double eps = 1e-5;
  Tensor x1 = leaf64({2, 3, 7}), w1 = leaf64({7}), b1 = leaf64({7});
  Tensor x2 = x1.detach().clone().requires_grad_();
  Tensor w2 = w1.detach().clone().requires_grad_();
  Tensor b2 = b1.detach().clone().requires_grad_();
  Tensor r = randn({2, 3, 7}, kFloat64);  // a random upstream gradient
  Tensor y1 = layer_norm(x1, w1, b1, eps);
  Tensor y2 = composed(x2, w2, b2, eps);
  CHECK_THAT(values(y1), ApproxValues(values(y2), 1e-10));
  sum(y1 * r).backward();
  sum(y2 * r).backward();
  CHECK_THAT(values(x1.grad()), ApproxValues(values(x2.grad()), 1e-10));
  CHECK_THAT(values(w1.grad()), ApproxValues(values(w2.grad()), 1e-10));
  CHECK_THAT(values(b1.grad()), ApproxValues(values(b2.grad()), 1e-10));
}

namespace {

// A second derivative of layer_norm: with L = Σ r ⊙ f(x, w, b) and its gradients gx = ∂L/∂x,
// gw = ∂L/∂w taken with create_graph, s = Σ q ⊙ gx + Σ qw ⊙ gw; returns ∂s/∂x and ∂s/∂w.
// x, w, b: float64 leaves that require grad.
struct SecondOrder {
  Tensor dx, dw;
};
template <class F>
SecondOrder second_order(F f, const Tensor& x, const Tensor& w, const Tensor& b,
                         const Tensor& r, const Tensor& q, const Tensor& qw) {
  for (const Tensor* t : {&x, &w, &b}) t->set_grad(Tensor());
  sum(f(x, w, b) * r).backward({}, /*retain_graph=*/true, /*create_graph=*/true);
  const Tensor gx = x.grad(), gw = w.grad();
  for (const Tensor* t : {&x, &w, &b}) t->set_grad(Tensor());
  (sum(gx * q) + sum(gw * qw)).backward();
  SecondOrder out{x.grad(), w.grad()};
  for (const Tensor* t : {&x, &w, &b}) t->set_grad(Tensor());  // clean for the next call
  return out;
}

// s of second_order at (x, w), from a plain backward (the fused kernel): one value.
double s_value(const Tensor& x_in, const Tensor& w_in, const Tensor& b, const Tensor& r,
               const Tensor& q, const Tensor& qw) {
  Tensor x = x_in.detach().clone().requires_grad_(), w = w_in.detach().clone().requires_grad_();
  sum(layer_norm(x, w, b.detach()) * r).backward();
  return (sum(x.grad() * q) + sum(w.grad() * qw)).item<double>();
}

}  // namespace

TEST_CASE("layer_norm's recorded backward has a derivative of its own (create_graph)",
          "[ops][layer_norm]") {
  // The same second derivative through layer_norm and through the composition of public
  // ops; then against central differences of s, computed with the fused backward.
  const double eps = 1e-5;
  Tensor x = leaf64({2, 3, 5}), w = leaf64({5}), b = leaf64({5});
  Tensor r = randn({2, 3, 5}, kFloat64), q = randn({2, 3, 5}, kFloat64), qw = randn({5}, kFloat64);
  auto fused = [&](const Tensor& a, const Tensor& c, const Tensor& d) {
    return layer_norm(a, c, d, eps);
  };
  auto unfused = [&](const Tensor& a, const Tensor& c, const Tensor& d) {
    return composed(a, c, d, eps);
  };
  const SecondOrder got = second_order(fused, x, w, b, r, q, qw);
  const SecondOrder want = second_order(unfused, x, w, b, r, q, qw);
  REQUIRE(got.dx.defined());
  REQUIRE(got.dw.defined());
  CHECK_THAT(values(got.dx), ApproxValues(values(want.dx), 1e-10));
  CHECK_THAT(values(got.dw), ApproxValues(values(want.dw), 1e-10));

  const double h = 1e-6;
  for (const auto& [leaf, grad] : {std::pair{x, got.dx}, std::pair{w, got.dw}}) {
    const std::vector<double> analytical = values(grad);
    for (int64_t k = 0; k < leaf.numel(); ++k) {
      double* v = leaf.data_ptr<double>() + k;
      const double orig = *v;
      *v = orig + h;
      const double plus = s_value(x, w, b, r, q, qw);
      *v = orig - h;
      const double minus = s_value(x, w, b, r, q, qw);
      *v = orig;
      CHECK(analytical[size_t(k)] == Approx((plus - minus) / (2 * h)).epsilon(1e-5).margin(1e-6));
    }
  }

  // Without weight and bias, and with x the only input that needs a gradient.
  Tensor x2 = leaf64({4, 6}), r2 = randn({4, 6}, kFloat64), q2 = randn({4, 6}, kFloat64);
  sum(layer_norm(x2, Tensor(), Tensor(), eps) * r2).backward({}, true, true);
  Tensor gx2 = x2.grad();
  x2.set_grad(Tensor());
  sum(gx2 * q2).backward();
  Tensor got2 = x2.grad();
  x2.set_grad(Tensor());
  sum(composed(x2, Tensor(), Tensor(), eps) * r2).backward({}, true, true);
  gx2 = x2.grad();
  x2.set_grad(Tensor());
  sum(gx2 * q2).backward();
  CHECK_THAT(values(got2), ApproxValues(values(x2.grad()), 1e-10));
}

TEST_CASE("layer_norm float32 matches the float64 result", "[ops][layer_norm]") {
  Tensor x = randn({16, 33}, kFloat64), w = randn({33}, kFloat64), b = randn({33}, kFloat64);
  Tensor y64 = layer_norm(x, w, b);
  Tensor y32 = layer_norm(x.to(kFloat32), w.to(kFloat32), b.to(kFloat32));
  CHECK(y32.dtype() == kFloat32);
  CHECK_THAT(values(y32), ApproxValues(values(y64), 1e-5));
}

TEST_CASE("layer_norm stays normalized when the mean is large next to the spread",
          "[ops][layer_norm]") {
  // x = 1e4 + N(0, 1) in float32. The one-pass form mean(x²) - mean² subtracts two numbers
  // near 1e8, where float32 values are 8 apart, to get a variance of 1: garbage. Two passes
  // subtract the mean first.
  const int64_t N = 8, C = 256;
  Tensor x = add(randn({N, C}), 1e4);
  Tensor y = layer_norm(x, Tensor(), Tensor());
  CHECK_THAT(values(mean(y, {-1})), ApproxValues(std::vector<double>(N, 0.0), 1e-4));
  CHECK_THAT(values(var(y, {-1}, 0)), ApproxValues(std::vector<double>(N, 1.0), 1e-4));
}

TEST_CASE("layer_norm float32 with a large mean and a tiny spread matches float64",
          "[ops][layer_norm]") {
  // x = 1e4 + N(0, 0.01²): float32 values near 1e4 are 9.8e-4 apart, so a mean rounded to
  // float32 would be off by up to 4.9e-4, i.e. 0.05 after dividing by the std of 0.01.
  // The reference is float64 normalization of the very same float32 inputs.
  const int64_t N = 8, C = 256;
  Tensor x32 = add(mul(randn({N, C}), 0.01), 1e4).requires_grad_();
  Tensor x64 = x32.detach().to(kFloat64).requires_grad_();
  Tensor w = randn({C}, kFloat64), r = randn({N, C}, kFloat64);
  Tensor y32 = layer_norm(x32, w.to(kFloat32), Tensor());
  Tensor y64 = layer_norm(x64, w, Tensor());
  CHECK_THAT(values(y32), ApproxValues(values(y64), 1e-4));
  sum(y32 * r.to(kFloat32)).backward();
  sum(y64 * r).backward();
  // dx carries a factor rstd ≈ 100
  CHECK_THAT(values(x32.grad()), ApproxValues(values(x64.grad()), 1e-2));
}

TEST_CASE("layer_norm of empty inputs gives empty outputs", "[ops][layer_norm]") {
  // no rows, and rows of no features
  Tensor a = zeros({0, 3}).requires_grad_();
  Tensor ya = layer_norm(a, ones({3}), zeros({3}));
  CHECK(ya.shape() == Shape{0, 3});
  Tensor yb = layer_norm(zeros({2, 0}), Tensor(), Tensor());
  CHECK(yb.shape() == Shape{2, 0});
  sum(ya).backward();
  CHECK(a.grad().shape() == Shape{0, 3});
}

TEST_CASE("layer_norm of a constant row gives zeros, not NaN", "[ops][layer_norm]") {
  // var = 0, so rstd = 1/√eps; x - mean = 0 exactly
  Tensor y = layer_norm(full({2, 4}, 3.5), Tensor(), Tensor());
  CHECK_THAT(values(y), ApproxValues(std::vector<double>(8, 0.0)));
}

TEST_CASE("layer_norm errors name the op and the shapes", "[ops][layer_norm][errors]") {
  Tensor x = ones({2, 3});
  CHECK(error_message([&] { layer_norm(x, ones({4}), Tensor()); }) ==
        "layer_norm: weight has shape [4] but the input's last dim is 3 (input [2, 3])");
  CHECK(error_message([&] { layer_norm(x, Tensor(), ones({3, 1})); }) ==
        "layer_norm: bias has shape [3, 1] but the input's last dim is 3 (input [2, 3])");
  CHECK(error_message([] { layer_norm(scalar_tensor(1.0), Tensor(), Tensor()); }) ==
        "layer_norm: needs at least 1 dim, got a 0-d tensor");
  CHECK(error_message([&] { layer_norm(x, ones({3}, kFloat64), Tensor()); }) ==
        "layer_norm: dtypes differ (float32 and float64); convert one with .to(dtype)");
  CHECK(error_message([] { layer_norm(ones({2, 3}, kInt64), Tensor(), Tensor()); }) ==
        "layer_norm: needs a floating tensor, got int64");
  CHECK(error_message([&] { layer_norm(x, Tensor(), Tensor(), -1.0); }) ==
        "layer_norm: eps must be >= 0, got -1");
  CHECK(error_message([] { layer_norm(Tensor(), Tensor(), Tensor()); }) ==
        "layer_norm: got an undefined tensor");
}
