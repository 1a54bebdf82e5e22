// gradcheck itself: it passes correct gradients and pinpoints wrong ones.
#include "autograd/node.h"
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;

namespace {
// d(x²) claimed as 3x instead of 2x: gradcheck must catch it.
struct WrongSquareBackward final : autograd::Node {
  Tensor x;
  const char* name() const override { return "WrongSquareBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {g * x * 3.0}; }
};

Tensor wrong_square(const Tensor& x) {
  Tensor out = x.detach() * x.detach();
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<WrongSquareBackward>();
    node->x = x.detach();
    autograd::connect(out, node, {x});
  }
  return out;
}
}  // namespace

TEST_CASE("gradcheck accepts correct gradients", "[gradcheck]") {
  Tensor x = attic::testing::leaf64({2, 3});
  CHECK(autograd::gradcheck([](const std::vector<Tensor>& v) { return v[0] * v[0]; }, {x}));
}

TEST_CASE("gradcheck names the op, the input and the element of a wrong gradient", "[gradcheck]") {
  Tensor x = tensor({{1, 2}}, kFloat64).requires_grad_();
  const std::string msg = error_message([&] {
    autograd::gradcheck([](const std::vector<Tensor>& v) { return wrong_square(v[0]); }, {x});
  });
  // output [0, 0] depends on input [0, 0] = 1: numerical 2, analytical 3
  CHECK(msg.rfind("gradcheck: WrongSquareBackward: d output[0, 0] / d input 0[0, 0]: numerical 2", 0) == 0);
  CHECK(msg.find("analytical 3") != std::string::npos);
}

TEST_CASE("gradcheck needs float64 leaves", "[gradcheck]") {
  Tensor x = ones({2}).requires_grad_();
  CHECK(error_message([&] {
    autograd::gradcheck([](const std::vector<Tensor>& v) { return v[0] * 2.0; }, {x});
  }) == "gradcheck: input 0 has dtype float32; gradcheck needs float64 inputs");
  Tensor e = ones({1}, kFloat64).expand({3}).detach().requires_grad_();
  CHECK(error_message([&] {
    autograd::gradcheck([](const std::vector<Tensor>& v) { return v[0] * 2.0; }, {e});
  }) == "gradcheck: input 0 is an expanded view (stride 0 in dim 0); perturbing one element "
        "would move several");
}

TEST_CASE("gradcheck checks only the inputs that require grad", "[gradcheck]") {
  Tensor x = attic::testing::leaf64({3});
  Tensor c = randn({3}, kFloat64);  // a constant
  CHECK(autograd::gradcheck([](const std::vector<Tensor>& v) { return v[0] * v[1]; }, {x, c}));
}
