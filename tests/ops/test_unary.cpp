#include <cmath>
#include <numbers>

#include "autograd/node.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {

constexpr double kPi = std::numbers::pi;

// The gradient of sum(f(x)) with respect to x, recorded (create_graph) so that gradcheck
// can check the second derivative through it. The grad guard keeps recording on under
// gradcheck's NoGradGuard.
Tensor first_grad(Tensor (*f)(const Tensor&), const Tensor& x) {
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

// d/dx of f(x) at each element of xs, through backward.
std::vector<double> grad_at(Tensor (*f)(const Tensor&), const std::vector<double>& xs) {
  Tensor x = from_vector(xs).requires_grad_();
  sum(f(x)).backward();
  return values(x.grad());
}

}  // namespace

TEST_CASE("exp and log: forward values", "[ops][unary]") {
  Tensor x = tensor({0.0, 1.0, -1.0}, kFloat64);
  // e^0 = 1, e^1 = e, e^-1 = 1/e
  CHECK_THAT(values(exp(x)), ApproxValues({1.0, std::numbers::e, 1.0 / std::numbers::e}));
  // ln 1 = 0, ln e = 1, ln 0.5 = -ln 2, ln 0 = -inf
  Tensor y = log(tensor({1.0, std::numbers::e, 0.5}, kFloat64));
  CHECK_THAT(values(y), ApproxValues({0.0, 1.0, -std::numbers::ln2}));
  CHECK(log(tensor({0.0})).item<float>() == -INFINITY);
  CHECK(exp(x).dtype() == kFloat64);
  CHECK(exp(tensor({1.0})).dtype() == kFloat32);
}

TEST_CASE("sqrt and rsqrt: forward values", "[ops][unary]") {
  // √4 = 2, √9 = 3, √0.25 = 0.5;  1/√4 = 0.5, 1/√0.25 = 2, 1/√1 = 1
  CHECK_THAT(values(sqrt(tensor({4.0, 9.0, 0.25}))), ApproxValues({2, 3, 0.5}));
  CHECK_THAT(values(rsqrt(tensor({4.0, 0.25, 1.0}))), ApproxValues({0.5, 2, 1}));
  CHECK(std::isnan(sqrt(tensor({-1.0})).item<float>()));
}

TEST_CASE("abs, sin, cos: forward values", "[ops][unary]") {
  CHECK_THAT(values(abs(tensor({{-2.0, 0.0}, {3.0, -0.5}}))), ApproxValues({2, 0, 3, 0.5}));
  // sin 0 = 0, sin π/2 = 1, sin π/6 = 1/2;  cos 0 = 1, cos π = -1, cos π/3 = 1/2
  Tensor a = tensor({0.0, kPi / 2, kPi / 6}, kFloat64);
  CHECK_THAT(values(sin(a)), ApproxValues({0, 1, 0.5}));
  Tensor b = tensor({0.0, kPi, kPi / 3}, kFloat64);
  CHECK_THAT(values(cos(b)), ApproxValues({1, -1, 0.5}));
}

TEST_CASE("tanh and sigmoid: forward values, and no overflow far out", "[ops][unary]") {
  const double ln2 = std::numbers::ln2, ln3 = std::log(3.0);
  // tanh(ln 2) = (2 - 1/2) / (2 + 1/2) = 0.6;  tanh is odd
  CHECK_THAT(values(tanh(tensor({0.0, ln2, -ln2}, kFloat64))), ApproxValues({0, 0.6, -0.6}));
  // σ(ln 3) = 1 / (1 + 1/3) = 0.75, σ(-ln 3) = 1 / (1 + 3) = 0.25
  CHECK_THAT(values(sigmoid(tensor({0.0, ln3, -ln3}, kFloat64))),
             ApproxValues({0.5, 0.75, 0.25}));
  // e^1000 overflows; σ must still give exactly 0 and 1 (float32)
  CHECK(values(sigmoid(tensor({-1000.0, 1000.0}))) == std::vector<double>{0.0, 1.0});
  CHECK(values(tanh(tensor({-1000.0, 1000.0}))) == std::vector<double>{-1.0, 1.0});
}

TEST_CASE("unary ops: gradients by hand", "[ops][unary]") {
  // d e^x = e^x: 1 at 0, e at 1
  CHECK_THAT(grad_at(exp, {0.0, 1.0}), ApproxValues({1.0, std::numbers::e}));
  // d ln x = 1/x: 0.5 at 2, -4 at -0.25
  CHECK_THAT(grad_at(log, {2.0, -0.25}), ApproxValues({0.5, -4.0}));
  // d √x = 1 / (2√x): 1/(2·2) = 0.25 at 4
  CHECK_THAT(grad_at(sqrt, {4.0}), ApproxValues({0.25}));
  // d x^(-1/2) = -x^(-3/2) / 2: -1/(2·8) = -0.0625 at 4
  CHECK_THAT(grad_at(rsqrt, {4.0}), ApproxValues({-0.0625}));
  // d|x| = sign(x), 0 at 0 (PyTorch's choice)
  CHECK_THAT(grad_at(abs, {-2.0, 0.0, 3.0}), ApproxValues({-1, 0, 1}));
  // d tanh = 1 - tanh²: 1 - 0.6² = 0.64 at ln 2
  CHECK_THAT(grad_at(tanh, {std::numbers::ln2}), ApproxValues({0.64}));
  // d σ = σ(1 - σ): 0.75 · 0.25 = 0.1875 at ln 3
  CHECK_THAT(grad_at(sigmoid, {std::log(3.0)}), ApproxValues({0.1875}));
  // d sin = cos: 1 at 0, 0.5 at π/3;  d cos = -sin: 0 at 0, -1 at π/2
  CHECK_THAT(grad_at(sin, {0.0, kPi / 3}), ApproxValues({1, 0.5}));
  CHECK_THAT(grad_at(cos, {0.0, kPi / 2}), ApproxValues({0, -1}));
}

TEST_CASE("unary ops: gradcheck, contiguous and non-contiguous", "[ops][unary][gradcheck]") {
  using F = Tensor (*)(const Tensor&);
  // log, sqrt and rsqrt need x > 0: gradcheck them on |x| + 0.5
  const std::vector<std::pair<const char*, F>> anywhere = {
      {"exp", exp}, {"abs", abs}, {"tanh", tanh}, {"sigmoid", sigmoid}, {"sin", sin},
      {"cos", cos}};
  const std::vector<std::pair<const char*, F>> positive = {
      {"log", log}, {"sqrt", sqrt}, {"rsqrt", rsqrt}};
  for (const auto& [name, f] : anywhere) {
    INFO(name);
    CHECK(gradcheck([f = f](const auto& in) { return f(in[0]); }, {leaf64({3, 4})}));
    CHECK(gradcheck([f = f](const auto& in) { return f(in[0]); }, {noncontiguous_leaf64({2, 3, 4})}));
  }
  for (const auto& [name, f] : positive) {
    INFO(name);
    auto g = [f = f](const std::vector<Tensor>& in) { return f(abs(in[0]) + 0.5); };
    CHECK(gradcheck(g, {leaf64({3, 4})}));
    CHECK(gradcheck(g, {noncontiguous_leaf64({2, 3, 4})}));
  }
}

TEST_CASE("unary ops: second derivatives through create_graph", "[ops][unary][gradcheck]") {
  // exp, sqrt, rsqrt, tanh and sigmoid save their output detached; a recorded backward
  // must recompute it, or these second derivatives would miss a term.
  using F = Tensor (*)(const Tensor&);
  for (F f : {F(exp), F(tanh), F(sigmoid), F(sin), F(cos), F(abs)}) {
    CHECK(gradcheck([f](const auto& in) { return first_grad(f, in[0]); }, {leaf64({5})}));
  }
  for (F f : {F(log), F(sqrt), F(rsqrt)}) {
    Tensor x = (abs(randn({5}, kFloat64)) + 0.5).detach().requires_grad_();
    CHECK(gradcheck([f](const auto& in) { return first_grad(f, in[0]); }, {x}));
  }
  // by hand: d²/dx² e^x = e^x = 1 at 0;  d²/dx² tanh x = -2 tanh x (1 - tanh² x) = 0 at 0
  Tensor x = tensor({0.0}, kFloat64).requires_grad_();
  first_grad(exp, x).backward(ones({1}, kFloat64));
  CHECK_THAT(values(x.grad()), ApproxValues({1.0}));  // first_grad cleared its own x.grad
}

TEST_CASE("unary ops: graph recording and no reference cycle", "[ops][unary]") {
  Tensor x = leaf64({3});
  CHECK(exp(x).grad_fn() != nullptr);
  CHECK(std::string(exp(x).grad_fn()->name()) == "ExpBackward");
  CHECK(std::string(sigmoid(x).grad_fn()->name()) == "SigmoidBackward");
  CHECK_FALSE(exp(x.detach()).requires_grad());
  {
    NoGradGuard no_grad;
    CHECK_FALSE(tanh(x).requires_grad());
  }
  // The node keeps a detached copy of the output; the output itself must die with its
  // last handle (a node holding it would keep it alive through grad_fn: a cycle).
  Tensor y = exp(x);
  std::weak_ptr<TensorImpl> weak = y.impl_ptr();
  y = Tensor();
  CHECK(weak.expired());
}

TEST_CASE("unary ops: errors name the op", "[ops][unary][errors]") {
  Tensor i = arange(3.0, kInt64);
  CHECK(error_message([&] { exp(i); }) == "exp: needs a floating tensor, got int64");
  CHECK(error_message([&] { sqrt(i); }) == "sqrt: needs a floating tensor, got int64");
  CHECK(error_message([] { log(Tensor()); }) == "log: got an undefined tensor");
}

TEST_CASE("sin, cos in float32: vectorized below 2^19, libm's beyond, any strides",
          "[ops][unary]") {
  // A [40, 50] tensor: its first 1000 entries in [-13.5, 13.5], the rest up to about ±1.5e8,
  // so that some blocks of 256 hold entries past 2^19 = 524288, where the kernel takes libm's
  // sinf and cosf, and some do not; read whole, and transposed (the strided loop).
  std::vector<double> xs;
  for (int i = 0; i < 2000; ++i)
    xs.push_back(i < 1000 ? (i - 500) / 37.0 : std::ldexp(double(i) - 1499.5, i % 21) / 7.0);
  const Tensor x = from_vector(xs, {40, 50}).to(kFloat32);
  for (const Tensor& in : {x, x.t()}) {
    const std::vector<float> xv = in.contiguous().to_vector<float>();
    const std::vector<float> s = sin(in).contiguous().to_vector<float>();
    const std::vector<float> c = cos(in).contiguous().to_vector<float>();
    double worst = 0;
    for (size_t i = 0; i < xv.size(); ++i) {
      worst = std::max(worst, std::fabs(double(s[i]) - std::sin(double(xv[i]))));
      worst = std::max(worst, std::fabs(double(c[i]) - std::cos(double(xv[i]))));
    }
    CHECK(worst < 1.2e-7);  // one float ulp at 1
  }
}
