// The check of chapter 3's exercise: topo_order's order, and my_backward's gradients against
// attic's own backward() (autograd/engine.cpp) on a chain, a diamond and a small network.
#include "tests/catch.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

#include "ops/ops.h"
#include "topo_backward.h"

using namespace attic;
using attic::autograd::Node;

namespace {

using Graph = std::function<Tensor(const std::vector<Tensor>&)>;

double max_abs_diff(const Tensor& a, const Tensor& b) {
  return max(abs(a.detach() - b.detach())).item<double>();
}

// Runs my_backward on f(leaves), then attic's backward on the same graph, and compares the
// .grad of every leaf that requires grad within 1e-6. A leaf that does not require grad
// must get no .grad.
void compare_with_attic(const Graph& f, const std::vector<Tensor>& leaves) {
  Tensor root = f(leaves);
  exercise::my_backward(root);
  std::vector<Tensor> mine;
  for (const Tensor& leaf : leaves) {
    if (!leaf.requires_grad()) {
      CHECK_FALSE(leaf.grad().defined());
      mine.push_back(Tensor());
      continue;
    }
    REQUIRE(leaf.grad().defined());
    CHECK_FALSE(leaf.grad().requires_grad());  // the gradient was not recorded
    mine.push_back(leaf.grad());
    leaf.set_grad({});
  }
  root.backward();  // the same graph: my_backward must have left it whole
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (!leaves[i].requires_grad()) continue;
    INFO("leaf " << i << ": mine " << mine[i] << "\nattic's " << leaves[i].grad());
    CHECK(max_abs_diff(mine[i], leaves[i].grad()) < 1e-6);
  }
}

Tensor leaf(const Shape& shape) { return randn(shape, kFloat64).requires_grad_(); }

// x [4]: y = sum(x) after 20 rounds of x -> tanh(x * 1.1 - 0.2).
Tensor chain(const std::vector<Tensor>& in) {
  Tensor y = in[0];
  for (int i = 0; i < 20; ++i) y = tanh(y * 1.1 - 0.2);
  return sum(y);
}

// x [3], w [3]: a = x w is used twice, so its node gets two gradients that must be summed
// before it runs:  y = sum(a * a + sin(a)),  dy/da = 2a + cos(a).
Tensor diamond(const std::vector<Tensor>& in) {
  Tensor a = in[0] * in[1];
  return sum(a * a + sin(a));
}

// x [5, 4], w1 [4, 8], b1 [8], w2 [8, 3]: loss = mean(relu(x w1 + b1) w2).
Tensor mlp(const std::vector<Tensor>& in) {
  return mean(matmul(relu(matmul(in[0], in[1]) + in[2]), in[3]));
}

}  // namespace

TEST_CASE("topo_order lists every node once, each after the nodes its edges lead to") {
  manual_seed(0);
  Tensor x = leaf({3}), w = leaf({3});
  Tensor root = diamond({x, w});
  const std::vector<Node*> order = exercise::topo_order(root);
  // MulBackward (a), MulBackward (a * a), SinBackward, AddBackward, SumBackward
  REQUIRE(order.size() == 5);
  CHECK(order.back() == root.grad_fn().get());
  std::unordered_map<Node*, size_t> position;
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  CHECK(position.size() == order.size());  // no node twice
  for (Node* n : order)
    for (const autograd::Edge& e : n->inputs)
      if (e.fn) {
        INFO(n->name() << " needs " << e.fn->name() << " listed before it");
        REQUIRE(position.count(e.fn.get()) == 1);
        CHECK(position[e.fn.get()] < position[n]);
      }
}

TEST_CASE("my_backward matches attic's backward on a chain of 61 nodes") {
  manual_seed(1);
  Tensor x = leaf({4});
  CHECK(exercise::topo_order(chain({x})).size() == 61);  // 20 x (mul, sub, tanh), then sum
  compare_with_attic(chain, {x});
}

TEST_CASE("my_backward sums the two gradients of a tensor used twice (a diamond)") {
  manual_seed(2);
  compare_with_attic(diamond, {leaf({3}), leaf({3})});
  // By hand at x = [1, 2, 3], w = [0.5, 0.5, 0.5]: a = [0.5, 1, 1.5],
  // dy/dx = (2a + cos(a)) w, dy/dw = (2a + cos(a)) x.
  Tensor x = tensor({1.0, 2.0, 3.0}, kFloat64).requires_grad_();
  Tensor w = tensor({0.5, 0.5, 0.5}, kFloat64).requires_grad_();
  exercise::my_backward(diamond({x, w}));
  REQUIRE(x.grad().defined());
  for (int i = 0; i < 3; ++i) {
    const double a = 0.5 * (i + 1);
    CHECK(x.grad()[i].item<double>() == Approx((2 * a + std::cos(a)) * 0.5).margin(1e-9));
    CHECK(w.grad()[i].item<double>() == Approx((2 * a + std::cos(a)) * (i + 1)).margin(1e-9));
  }
}

TEST_CASE("my_backward matches attic's backward on matmul + relu, with a constant input") {
  manual_seed(3);
  Tensor x = randn({5, 4}, kFloat64);  // data: no gradient wanted
  compare_with_attic(mlp, {x, leaf({4, 8}), leaf({8}), leaf({8, 3})});
}

TEST_CASE("my_backward adds into .grad: two calls give twice the gradient") {
  manual_seed(4);
  Tensor x = leaf({3}), w = leaf({3});
  Tensor root = diamond({x, w});
  exercise::my_backward(root);
  REQUIRE(x.grad().defined());
  const Tensor once = x.grad().clone();
  exercise::my_backward(root);
  CHECK(max_abs_diff(x.grad(), once * 2) < 1e-12);
}
