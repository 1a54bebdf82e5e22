// autograd::checkpoint: the recomputation gives the gradients a direct run gives, bit for
// bit, dropout included; generators end where a direct run leaves them; nesting works;
// an input written in place before backward is refused.
#include "autograd/checkpoint.h"
#include "helpers.h"
#include "nn/linear.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::values;

namespace {

// y = dropout(tanh(x W1ᵀ) ⊙ mask) W2ᵀ: parameters, a captured mask and a random draw.
struct Net {
  nn::Linear a{4, 6}, b{6, 3};
  Tensor mask = gt(tensor({1, 0, 1, 1, 0, 1}), 0.5);
  Tensor forward(const Tensor& x) {
    Tensor h = masked_fill(tanh(a.forward(x)), logical_not(mask), 0.0);
    return b.forward(dropout(h, 0.3, true));
  }
};

}  // namespace

TEST_CASE("checkpoint: y = x² + x, by hand", "[autograd][checkpoint]") {
  // dy/dx = 2x + 1 = (3, 5) at x = (1, 2); the forward values are those of the direct run
  Tensor x = tensor({1, 2}).requires_grad_();
  Tensor y = autograd::checkpoint([](const std::vector<Tensor>& in) { return in[0] * in[0] + in[0]; }, {x});
  CHECK(values(y) == std::vector<double>{2, 6});
  CHECK(std::string(autograd::node_name(*y.grad_fn())) == "CheckpointBackward");
  sum(y).backward();
  CHECK(values(x.grad()) == std::vector<double>{3, 5});
}

TEST_CASE("checkpoint: gradients and the generator state equal a direct run's, bit for bit", "[autograd][checkpoint]") {
  manual_seed(7);
  Net net;
  Tensor x = randn({5, 4}).requires_grad_();
  auto run = [&](bool checkpointed) {
    net.a.zero_grad();
    net.b.zero_grad();
    x.set_grad(Tensor());
    manual_seed(11);
    Tensor y = checkpointed
                   ? autograd::checkpoint([&](const std::vector<Tensor>& in) { return net.forward(in[0]); }, {x})
                   : net.forward(x);
    Tensor after_forward = randn({3});  // a draw between forward and backward
    sum(y * y).backward();
    Tensor after_backward = randn({3});  // and one after
    return std::vector<Tensor>{y.detach(), net.a.weight.grad(), net.a.bias.grad(), net.b.weight.grad(),
                               x.grad(), after_forward, after_backward};
  };
  std::vector<Tensor> direct = run(false), checked = run(true);
  for (size_t i = 0; i < direct.size(); ++i) {
    INFO("tensor " << i);
    CHECK(values(checked[i]) == values(direct[i]));  // exact
  }
}

TEST_CASE("checkpoint: nested checkpoints recompute lazily and give the same gradients", "[autograd][checkpoint]") {
  manual_seed(3);
  nn::Linear l1(3, 3), l2(3, 3);
  Tensor x = randn({2, 3}).requires_grad_();
  auto inner = [&](const std::vector<Tensor>& in) { return tanh(l2.forward(in[0])); };
  auto outer = [&](const std::vector<Tensor>& in) {
    return autograd::checkpoint(inner, {relu(l1.forward(in[0]))}) * 2.0;
  };
  sum(autograd::checkpoint(outer, {x})).backward();
  std::vector<double> gx = values(x.grad()), g1 = values(l1.weight.grad()), g2 = values(l2.weight.grad());
  x.set_grad(Tensor());
  l1.zero_grad();
  l2.zero_grad();
  sum(tanh(l2.forward(relu(l1.forward(x)))) * 2.0).backward();
  CHECK(gx == values(x.grad()));
  CHECK(g1 == values(l1.weight.grad()));
  CHECK(g2 == values(l2.weight.grad()));
}

TEST_CASE("checkpoint: an input written in place before backward is an error", "[autograd][checkpoint]") {
  Tensor w = tensor({1, 2}).requires_grad_();
  Tensor scale = tensor({3, 3});  // no grad: in-place writes are allowed on it
  Tensor y = autograd::checkpoint([](const std::vector<Tensor>& in) { return in[0] * in[1]; }, {w, scale});
  scale.add_(tensor({1, 1}));
  CHECK(error_message([&] { sum(y).backward(); }) ==
        "checkpoint: input 1 [2] was written in place after the forward (storage version 0, now 1); "
        "recomputing from it would not give the forward's values");
}

TEST_CASE("checkpoint: parameters get gradients when no input requires grad", "[autograd][checkpoint]") {
  nn::Linear l(2, 1);
  Tensor x = tensor({{1, 2}});
  sum(autograd::checkpoint([&](const std::vector<Tensor>& in) { return l.forward(in[0]); }, {x})).backward();
  CHECK(values(l.weight.grad()) == std::vector<double>{1, 2});
  CHECK(values(l.bias.grad()) == std::vector<double>{1});
}

TEST_CASE("checkpoint: outside grad mode it is the function itself", "[autograd][checkpoint]") {
  NoGradGuard off;
  Tensor x = tensor({1, 2}).requires_grad_();
  Tensor y = autograd::checkpoint([](const std::vector<Tensor>& in) { return in[0] * 2.0; }, {x});
  CHECK(!y.requires_grad());
  CHECK(values(y) == std::vector<double>{2, 4});
}
