// The check of chapter 3's exercise: topo_order's order, and my_backward's gradients against
// attic's own backward() (autograd/engine.cpp) on a chain, a diamond and a small network;
// then my_backward swapped in as the library's engine (autograd/engine_swap.h), so that a
// GPT's loss.backward() and a short training run go through it.
#include "tests/catch.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <unordered_map>

#include "autograd/engine_swap.h"
#include "data/data.h"
#include "models/gpt.h"
#include "ops/ops.h"
#include "optim/optim.h"
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

namespace {

// Tensor::backward() through my_backward, counted. my_backward seeds d root / d root = 1 and
// keeps the graph, so it stands in for backward() with no arguments.
int engine_calls = 0;
void my_engine(const Tensor& root, const Tensor& grad, bool /*retain_graph*/, bool create_graph) {
  ATTIC_CHECK(!grad.defined() && !create_graph,
              "my_backward: only backward() with no gradient and no create_graph");
  ++engine_calls;
  exercise::my_backward(root);
}

// A GPT of 2 blocks, width 32, on Shakespeare's characters; no dropout, so that two passes
// over one batch make the same graph.
std::unique_ptr<models::GPT> tiny_gpt(int64_t vocab_size) {
  models::GPTConfig cfg;
  cfg.block_size = 16;
  cfg.vocab_size = vocab_size;
  cfg.n_layer = 2;
  cfg.n_head = 4;
  cfg.n_embd = 32;
  cfg.dropout = 0.0;
  return std::make_unique<models::GPT>(cfg);
}

}  // namespace

TEST_CASE("swapped in, my_backward runs a GPT's loss.backward(): every gradient as attic's") {
  manual_seed(5);
  const TextDataset ds = TextDataset::from_file(default_dataset_path());
  const std::unique_ptr<models::GPT> gpt = tiny_gpt(ds.vocab_size());
  models::GPT& model = *gpt;
  Generator gen(6);
  const Batch b = ds.get_batch(Split::Train, 4, 16, gen);

  model.forward(b.x, b.y).loss.backward();  // attic's engine
  std::vector<std::pair<std::string, Tensor>> attics;
  for (const auto& [name, p] : model.named_parameters()) attics.push_back({name, p.grad()});
  model.zero_grad();

  engine_calls = 0;
  {
    autograd::EngineSwap swap(my_engine);
    model.forward(b.x, b.y).loss.backward();  // the same call, now on your engine
  }
  CHECK(engine_calls == 1);
  const auto params = model.named_parameters();
  REQUIRE(params.size() == attics.size());
  for (size_t i = 0; i < params.size(); ++i) {
    INFO(params[i].first);
    REQUIRE(params[i].second.grad().defined());
    // The same nodes sum the same gradients, perhaps in another order: float32 rounding.
    const double scale = max(abs(attics[i].second)).item<double>() + 1e-6;
    CHECK(max_abs_diff(params[i].second.grad(), attics[i].second) <= 1e-5 * scale);
  }
}

TEST_CASE("swapped in, my_backward trains the GPT: 20 AdamW steps, the losses of attic's") {
  const TextDataset ds = TextDataset::from_file(default_dataset_path());
  // The same model, batches and optimizer, trained once per engine.
  auto train = [&](bool mine) {
    manual_seed(7);
    const std::unique_ptr<models::GPT> gpt = tiny_gpt(ds.vocab_size());
    models::GPT& model = *gpt;
    optim::AdamW opt = model.configure_optimizers(0.1, 1e-2, {0.9, 0.99});
    Generator gen(8);
    std::vector<double> losses;
    autograd::EngineSwap swap(mine ? my_engine : nullptr);
    for (int step = 0; step < 20; ++step) {
      const Batch b = ds.get_batch(Split::Train, 4, 16, gen);
      Tensor loss = model.forward(b.x, b.y).loss;
      loss.backward();
      opt.step();
      opt.zero_grad();
      losses.push_back(loss.item<double>());
    }
    return losses;
  };
  const std::vector<double> attics = train(false);
  engine_calls = 0;
  const std::vector<double> mine = train(true);
  CHECK(engine_calls == 20);
  for (size_t i = 0; i < mine.size(); ++i) {
    INFO("step " << i);
    CHECK(mine[i] == Approx(attics[i]).margin(1e-4));
  }
  CHECK(mine.back() < mine.front() - 0.3);  // it learned
}
