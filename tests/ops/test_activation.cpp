#include <cmath>

#include "autograd/node.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {

// The gradient of sum(f(x)) with respect to x, recorded (create_graph) so that gradcheck
// can check the second derivative through it. The grad guard keeps recording on under
// gradcheck's NoGradGuard.
Tensor first_grad(const std::function<Tensor(const Tensor&)>& f, const Tensor& x) {
  autograd::EnableGradGuard on;
  Tensor z = x * 1.0;  // a non-leaf that keeps its .grad
  z.retain_grad();
  sum(f(z)).backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
  Tensor g = z.grad();
  // z.grad and x.grad hold graphs that refer back to z and x: drop them, or they leak
  z.set_grad(Tensor());
  x.set_grad(Tensor());
  return g;
}

// f(x) and d/dx f(x) at each element of xs (float64), through backward.
std::pair<std::vector<double>, std::vector<double>> value_and_grad(
    const std::function<Tensor(const Tensor&)>& f, const std::vector<double>& xs) {
  Tensor x = from_vector(xs).requires_grad_();
  Tensor y = f(x);
  sum(y).backward();
  return {values(y), values(x.grad())};
}

Tensor gelu_tanh(const Tensor& x) { return gelu(x, "tanh"); }
Tensor gelu_none(const Tensor& x) { return gelu(x); }
Tensor elu2(const Tensor& x) { return elu(x, 2.0); }

}  // namespace

TEST_CASE("relu: forward and gradient by hand", "[ops][activation]") {
  auto [y, dy] = value_and_grad(relu, {-1.0, 0.0, 2.0, -0.5});
  CHECK_THAT(y, ApproxValues({0, 0, 2, 0}));
  CHECK_THAT(dy, ApproxValues({0, 0, 1, 0}));  // 0 at exactly 0, as in PyTorch
}

TEST_CASE("gelu (erf form): forward and gradient by hand", "[ops][activation]") {
  // y = x Φ(x) with Φ(1) = 0.8413447461, Φ(2) = 0.9772498681, Φ(-1) = 1 - Φ(1):
  //   gelu(1) = 0.8413447461, gelu(-1) = -0.1586552539, gelu(2) = 1.9544997361
  // dy/dx = Φ(x) + x φ(x) with φ(1) = e^(-1/2) / √(2π) = 0.2419707245:
  //   at 0: 0.5;  at 1: 0.8413447461 + 0.2419707245 = 1.0833154706;
  //   at -1: 0.1586552539 - 0.2419707245 = -0.0833154706
  auto [y, dy] = value_and_grad(gelu_none, {0.0, 1.0, -1.0, 2.0});
  CHECK_THAT(y, ApproxValues({0, 0.8413447461, -0.1586552539, 1.9544997361}, 1e-9));
  CHECK_THAT(dy, ApproxValues({0.5, 1.0833154706, -0.0833154706, 1.0852318011}, 1e-9));
  CHECK(gelu(tensor({1.0})).item<float>() == Approx(0.8413447461f));
}

TEST_CASE("gelu (erf form): the float32 gradient is within 3e-7 of the exact one",
          "[ops][activation]") {
  // float32 computes erf from the exp it shares with φ (Abramowitz & Stegun 7.1.26, see
  // tensor/cpu/elementwise.cpp); the reference is Φ(x) + x φ(x) in float64 libm.
  std::vector<double> xs;
  for (int i = -20000; i <= 20000; ++i) xs.push_back(i * 5e-4);  // [-10, 10]
  Tensor x = from_vector(xs).to(kFloat32).requires_grad_();
  sum(gelu(x)).backward();
  const std::vector<double> dy = values(x.grad());
  double worst = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double v = double(float(xs[i]));
    const double exact = 0.5 * (1 + std::erf(v / std::sqrt(2.0))) +
                         v * std::exp(-0.5 * v * v) / std::sqrt(2 * M_PI);
    worst = std::max(worst, std::abs(dy[i] - exact));
  }
  INFO("largest error " << worst);
  CHECK(worst < 3e-7);
}

TEST_CASE("gelu (tanh form): forward and gradient by hand", "[ops][activation]") {
  // at x = 1: u = √(2/π) (1 + 0.044715) = 0.7978845608 · 1.044715 = 0.8335619689,
  //   t = tanh(u) = 0.6823839812, y = (1 + t) / 2 = 0.8411919906
  //   dy/dx = (1 + t)/2 + (1 - t²) √(2/π) (1 + 3 · 0.044715) / 2 = 1.0829640838
  // gelu is x Φ(x) in both forms, so odd-symmetric around y = x/2: gelu(-1) = 0.841.. - 1
  auto [y, dy] = value_and_grad(gelu_tanh, {0.0, 1.0, -1.0});
  CHECK_THAT(y, ApproxValues({0, 0.8411919906, -0.1588080094}, 1e-9));
  CHECK_THAT(dy, ApproxValues({0.5, 1.0829640838, -0.0829640838}, 1e-9));
}

TEST_CASE("silu: forward and gradient by hand", "[ops][activation]") {
  // σ(ln 3) = 0.75, σ(-ln 3) = 0.25:  silu(ln 3) = 0.75 ln 3 = 0.8239592165,
  //   silu(-ln 3) = -0.25 ln 3 = -0.2746530722
  // dy/dx = σ (1 + x (1 - σ)): at 0: 0.5;  at ln 3: 0.75 (1 + 0.25 ln 3) = 0.9559898041
  const double ln3 = std::log(3.0);
  auto [y, dy] = value_and_grad(silu, {0.0, ln3, -ln3});
  CHECK_THAT(y, ApproxValues({0, 0.8239592165, -0.2746530722}, 1e-9));
  CHECK_THAT(dy, ApproxValues({0.5, 0.9559898041, 0.25 * (1 - 0.75 * ln3)}, 1e-9));
}

TEST_CASE("elu: forward and gradient by hand", "[ops][activation]") {
  // α = 2: elu(-ln 2) = 2 (1/2 - 1) = -1, elu(0) = 0, elu(3) = 3
  // dy/dx = α e^x below 0: 2 · 1/2 = 1 at -ln 2; α = 2 at exactly 0; 1 above
  auto [y, dy] = value_and_grad(elu2, {-std::log(2.0), 0.0, 3.0});
  CHECK_THAT(y, ApproxValues({-1, 0, 3}));
  CHECK_THAT(dy, ApproxValues({1, 2, 1}));
  // α defaults to 1: elu(-∞) → -1
  CHECK(elu(tensor({-1000.0})).item<float>() == -1.0f);
}

TEST_CASE("elu: no NaN far out, also in a recorded backward", "[ops][activation]") {
  // e^1000 overflows; the backward must not multiply that inf by a 0
  Tensor x = tensor({1000.0, -1000.0}, kFloat64).requires_grad_();
  Tensor g = first_grad([](const Tensor& t) { return elu(t); }, x);
  CHECK_THAT(values(g), ApproxValues({1, 0}));
  g.backward(ones({2}, kFloat64));  // d²/dx²: 0 above 0, α e^x → 0 far below
  for (double v : values(x.grad())) CHECK_FALSE(std::isnan(v));
}

TEST_CASE("activations: gradcheck, contiguous and non-contiguous", "[ops][activation][gradcheck]") {
  using F = std::function<Tensor(const Tensor&)>;
  const std::vector<std::pair<const char*, F>> fs = {
      {"relu", relu}, {"gelu none", gelu_none}, {"gelu tanh", gelu_tanh}, {"silu", silu},
      {"elu", elu2}};
  for (const auto& [name, f] : fs) {
    INFO(name);
    CHECK(gradcheck([f = f](const auto& in) { return f(in[0]); }, {leaf64({3, 4})}));
    CHECK(gradcheck([f = f](const auto& in) { return f(in[0]); }, {noncontiguous_leaf64({2, 3, 4})}));
  }
}

TEST_CASE("activations: second derivatives through create_graph", "[ops][activation][gradcheck]") {
  // gelu's backward uses an erf that has a gradient of its own; silu's uses sigmoid
  using F = std::function<Tensor(const Tensor&)>;
  for (const F& f : {F(gelu_none), F(gelu_tanh), F(silu), F(elu2), F(relu)}) {
    CHECK(gradcheck([&f](const auto& in) { return first_grad(f, in[0]); }, {leaf64({6})}));
  }
}

TEST_CASE("gelu (erf form): the fused backward kernel matches the composed one",
          "[ops][activation]") {
  // backward() alone takes the one-kernel GeluErfBackward; create_graph composes Φ(x) + x φ(x)
  // from public ops. Both are the same formula, so they agree to rounding, on a
  // non-contiguous input and on tails where Φ(x) is 0 or 1 (x = ±10).
  Tensor x = noncontiguous_leaf64({2, 3, 4});
  sum(gelu(x)).backward();
  const std::vector<double> fused = values(x.grad());
  x.set_grad(Tensor());
  const std::vector<double> composed = values(first_grad(gelu_none, x));
  CHECK_THAT(fused, ApproxValues(composed));
  auto [y, dy] = value_and_grad(gelu_none, {-10.0, 10.0});
  CHECK_THAT(dy, ApproxValues({0, 1}));
}

TEST_CASE("activations: graph recording", "[ops][activation]") {
  Tensor x = leaf64({2});
  CHECK(std::string(relu(x).grad_fn()->name()) == "ReluBackward");
  CHECK(std::string(gelu(x, "tanh").grad_fn()->name()) == "GeluBackward");
  CHECK_FALSE(silu(x.detach()).requires_grad());
  CHECK(gelu(x).dtype() == kFloat64);
}

TEST_CASE("activations: errors", "[ops][activation][errors]") {
  Tensor x = tensor({1.0});
  CHECK(error_message([&] { gelu(x, "fast"); }) ==
        "gelu: approximate must be \"none\" or \"tanh\", got \"fast\"");
  CHECK(error_message([&] { gelu(x, "Tanh"); }) ==
        "gelu: approximate must be \"none\" or \"tanh\", got \"Tanh\"");
  Tensor i = arange(3.0, kInt64);
  CHECK(error_message([&] { relu(i); }) == "relu: needs a floating tensor, got int64");
  CHECK(error_message([&] { elu(i); }) == "elu: needs a floating tensor, got int64");
}
