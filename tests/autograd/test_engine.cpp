// The backward engine: seeding, accumulation, graph freeing, grad mode, deep graphs.
#include "autograd/node.h"
#include "devices.h"
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::values;

TEST_CASE("backward of a scalar seeds the gradient with 1", "[autograd]") {
  // y = x0² + 3 x1  =>  dy/dx = (2 x0, 3) = (4, 3) at x = (2, 5)
  Tensor x = tensor({2, 5}).requires_grad_();
  Tensor y = sum(x * x * tensor({1, 0}) + x * tensor({0, 3}));
  y.backward();
  CHECK(values(x.grad()) == std::vector<double>{4, 3});
}

TEST_CASE("backward of a non-scalar needs an explicit gradient", "[autograd]") {
  Tensor x = tensor({1, 2}).requires_grad_();
  Tensor y = x * 2.0;
  CHECK(error_message([&] { y.backward(); }) ==
        "backward: grad can be implicitly created only for a one-element output, got shape [2]");
  y.backward(tensor({1, 10}));
  CHECK(values(x.grad()) == std::vector<double>{2, 20});
  CHECK(error_message([&] { (x * 2.0).backward(ones({3})); }) ==
        "backward: grad of shape [3] does not match the output's shape [2]");
}

TEST_CASE("backward on a tensor that does not require grad is an error", "[autograd]") {
  CHECK(error_message([] { sum(ones({2})).backward(); }) ==
        "backward: tensor does not require grad and has no grad_fn");
}

TEST_CASE("gradients accumulate into leaves across backward calls", "[autograd]") {
  Tensor x = tensor({1, 2, 3}).requires_grad_();
  Tensor y = sum(x * 4.0);
  y.backward({}, /*retain_graph=*/true);
  CHECK(values(x.grad()) == std::vector<double>{4, 4, 4});
  y.backward();  // the same graph again: adds, does not replace
  CHECK(values(x.grad()) == std::vector<double>{8, 8, 8});
  x.set_grad(Tensor());  // what an optimizer's zero_grad does
  sum(x * 4.0).backward();
  CHECK(values(x.grad()) == std::vector<double>{4, 4, 4});
}

TEST_CASE("without retain_graph, a second backward through the same graph fails", "[autograd]") {
  Tensor x = tensor({1, 2}).requires_grad_();
  Tensor y = sum(x * x);
  y.backward();
  CHECK(error_message([&] { y.backward(); }) ==
        "backward: trying to backward through SumBackward again; its graph was freed "
        "by an earlier backward (pass retain_graph=true to keep it)");
}

TEST_CASE("a tensor used twice gets the sum of both paths", "[autograd]") {
  // y = x * x + x  =>  dy/dx = 2x + 1
  Tensor x = tensor({3}).requires_grad_();
  Tensor y = x * x + x;
  sum(y).backward();
  CHECK(values(x.grad()) == std::vector<double>{7});
}

TEST_CASE("a diamond graph runs each node once, after all its consumers", "[autograd]") {
  // h = 2x; y = h*h + 3h  =>  dy/dx = (2h + 3) * 2 = 8x + 6
  Tensor x = tensor({1, 2}).requires_grad_();
  Tensor h = x * 2.0;
  Tensor y = sum(h * h + h * 3.0);
  y.backward();
  CHECK(values(x.grad()) == std::vector<double>{14, 22});
}

TEST_CASE("NoGradGuard records nothing and restores the mode", "[autograd]") {
  Tensor x = ones({2}).requires_grad_();
  {
    NoGradGuard g;
    Tensor y = x * 2.0 + 1.0;
    CHECK_FALSE(y.requires_grad());
    CHECK(y.grad_fn() == nullptr);
    {
      NoGradGuard nested;
    }
    CHECK_FALSE(autograd::GradMode::is_enabled());
  }
  CHECK(autograd::GradMode::is_enabled());
  CHECK((x * 2.0).grad_fn() != nullptr);
}

TEST_CASE("detach cuts the graph but shares the data", "[autograd]") {
  Tensor x = tensor({1, 2}).requires_grad_();
  Tensor d = (x * 3.0).detach();
  CHECK_FALSE(d.requires_grad());
  CHECK(d.is_leaf());
  Tensor y = sum(x * d);  // d acts as a constant: dy/dx = d
  y.backward();
  CHECK(values(x.grad()) == std::vector<double>{3, 6});
}

TEST_CASE("requires_grad_ rules", "[autograd]") {
  Tensor i = zeros({2}, kInt64);
  CHECK(error_message([&] { i.requires_grad_(); }) ==
        "requires_grad_: only floating tensors can require grad, this one is int64");
  Tensor x = ones({1}).requires_grad_();
  Tensor y = x * 2.0;
  CHECK(error_message([&] { y.requires_grad_(false); }) ==
        "requires_grad_: only a leaf can stop requiring grad; use detach() on a tensor made by MulBackward");
  CHECK(y.requires_grad());
  CHECK_FALSE(y.is_leaf());
}

TEST_CASE("retain_grad keeps the gradient of an intermediate tensor", "[autograd]") {
  Tensor x = tensor({1, 2}).requires_grad_();
  Tensor h = x * 3.0;
  h.retain_grad();
  sum(h * h).backward();  // d/dh = 2h = (6, 12)
  CHECK(values(h.grad()) == std::vector<double>{6, 12});
  CHECK(values(x.grad()) == std::vector<double>{18, 36});
}

TEST_CASE("leaf gradients never alias each other", "[autograd]") {
  Tensor a = ones({2}).requires_grad_();
  Tensor b = ones({2}).requires_grad_();
  sum(a + b).backward();
  a.grad().mul_(10);
  CHECK(values(b.grad()) == std::vector<double>{1, 1});
}

TEST_CASE("a gradient nothing else holds becomes .grad without a copy", "[autograd]") {
  // MulBackward makes a fresh g * 3 that only the engine holds: it is taken as .grad.
  // The seed that backward(grad) is given stays the caller's: it is copied.
  Tensor x = ones({3}).requires_grad_();
  (x * 3.0).backward(ones({3}));
  CHECK(values(x.grad()) == std::vector<double>{3, 3, 3});
  Tensor seed = full({3}, 2.0);
  Tensor leaf = zeros({3}).requires_grad_();
  leaf.backward(seed);
  CHECK_FALSE(leaf.grad().shares_storage(seed));
  seed.fill_(7.0);
  CHECK(values(leaf.grad()) == std::vector<double>{2, 2, 2});
}

TEST_CASE("create_graph gives second derivatives", "[autograd]") {
  // y = x³  =>  y' = 3x² = 12, y'' = 6x = 12 at x = 2
  Tensor x = tensor({2.0}, kFloat64).requires_grad_();
  Tensor y = sum(x * x * x);
  y.backward({}, /*retain_graph=*/true, /*create_graph=*/true);
  Tensor g = x.grad();
  CHECK(values(g) == std::vector<double>{12});
  REQUIRE(g.requires_grad());
  x.set_grad(Tensor());
  sum(g).backward();
  CHECK(values(x.grad()) == std::vector<double>{12});
}

TEST_CASE("a chain of 100,000 ops backpropagates and frees without overflowing the stack",
          "[autograd][deep]") {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor h = x;
  for (int i = 0; i < 100000; ++i) h = h * 1.0 + 0.0;  // 200,000 nodes deep
  sum(h).backward();
  CHECK(values(x.grad()) == std::vector<double>{1});
}

TEST_CASE("a 100,000-op graph that is never backpropagated is freed iteratively",
          "[autograd][deep]") {
  Tensor x = tensor({1.0}).requires_grad_();
  {
    Tensor h = x;
    for (int i = 0; i < 100000; ++i) h = h + 1.0;
    CHECK(h.item<float>() == 100001.0f);
  }  // h's destructor frees 100,000 nodes in a loop, not by recursion
  CHECK(x.grad_fn() == nullptr);
}

namespace {
// A deliberately broken node: returns a gradient of the wrong shape.
struct BadShapeBackward final : autograd::Node {
  const char* name() const override { return "BadShapeBackward"; }
  std::vector<Tensor> backward(const Tensor&) override { return {zeros({5})}; }
};
}  // namespace

TEST_CASE("the engine rejects a gradient of the wrong shape, naming the node", "[autograd]") {
  Tensor x = ones({2}).requires_grad_();
  Tensor y = x.detach().clone();
  autograd::connect(y, std::make_shared<BadShapeBackward>(), {x});
  CHECK(error_message([&] { sum(y).backward(); }) ==
        "backward: BadShapeBackward returned a gradient of shape [5] for input 0 of shape [2]");
}

namespace {
// A node that returns no gradient for its one input (as an op whose output is not used
// returns none): the engine must then send a zero gradient on to the input's producer.
struct NoGradBackward final : autograd::Node {
  const char* name() const override { return "NoGradBackward"; }
  std::vector<Tensor> backward(const Tensor&) override { return {Tensor()}; }
};
}  // namespace

TEST_CASE("a zero gradient for an input that got none is made on the input's device",
          "[autograd][devices]") {
  // loss = sum(z) + sum(y), with z's node returning no gradient for y = x · 3: y's node gets
  // the zero from z plus the 1s from sum(y), so x.grad = 3, on x's device and in x's dtype.
  for (Device d : attic::testing::available_devices()) {
    INFO(device_name(d));
    Tensor x = tensor({1, 2}, kFloat64).to(d).detach().requires_grad_();
    Tensor y = x * 3.0;
    Tensor z = y.detach().clone();
    autograd::connect(z, std::make_shared<NoGradBackward>(), {y});
    // Only z's path: the engine makes y's gradient itself, a zero [2] on d.
    sum(z).backward({}, /*retain_graph=*/true);
    REQUIRE(x.grad().defined());
    CHECK(x.grad().device() == d);
    CHECK(x.grad().dtype() == kFloat64);
    CHECK(values(x.grad()) == std::vector<double>{0, 0});
    x.set_grad(Tensor());
    (sum(z) + sum(y)).backward();
    CHECK(x.grad().device() == d);
    CHECK(values(x.grad()) == std::vector<double>{3, 3});
  }
}

TEST_CASE("create_graph: clearing .grad frees the leaf (as in PyTorch)", "[autograd]") {
  std::weak_ptr<TensorImpl> watch;
  {
    Tensor x = tensor({2.0}, kFloat64).requires_grad_();
    watch = x.impl_ptr();
    sum(x * x * x).backward({}, false, /*create_graph=*/true);  // x.grad holds a graph over x
    REQUIRE(x.grad().grad_fn() != nullptr);
    x.set_grad(Tensor());  // breaks the cycle x -> x.grad -> MulBackward -> saved x
  }
  CHECK(watch.expired());
}

TEST_CASE("sums of gradients are taken in place only where nothing else sees them",
          "[autograd]") {
  // x feeds five products: its gradient is the sum of five, Σ_i w_i (as a row), which the
  // engine adds into one buffer. The sum must be exact whatever the order of additions here
  // (small integers), and a second backward adds into .grad again.
  Tensor x = tensor({{1.0, 2.0}, {3.0, 4.0}}).requires_grad_();
  std::vector<Tensor> ws;
  Tensor total = zeros({});
  for (int i = 1; i <= 5; ++i) {
    ws.push_back(tensor({double(i), double(-i)}));
    total = total + sum(x * ws.back());
  }
  total.backward();
  // Σ w = (15, -15) in every row.
  CHECK(values(x.grad()) == std::vector<double>{15, -15, 15, -15});

  // A .grad the caller still holds is not written in place: the second backward makes a new
  // sum, and the held tensor keeps the first one (PyTorch's AccumulateGrad does the same).
  Tensor held = x.grad();
  Tensor y = sum(x * tensor({1.0, 1.0})) + sum(x * tensor({2.0, 0.0}));
  y.backward();
  CHECK(values(held) == std::vector<double>{15, -15, 15, -15});
  CHECK(values(x.grad()) == std::vector<double>{18, -14, 18, -14});

  // Once no other handle is left, the next gradient goes into .grad itself.
  held = Tensor();
  const void* before = x.grad().data_ptr<float>();
  sum(x).backward();
  CHECK(x.grad().data_ptr<float>() == before);
  CHECK(values(x.grad()) == std::vector<double>{19, -13, 19, -13});
}

TEST_CASE("a .grad that is an expanded view is never summed into in place", "[autograd]") {
  // Every element of an expanded view is one float in memory: adding in place would add the
  // whole gradient into it. (The same rule for the sums inside the engine is what the linear
  // attention and block gradchecks of tests/nn catch: their x is read as q, k and v, and one
  // of its gradients arrives as a view a sum's backward expanded.)
  Tensor w = tensor({1.0, 2.0, 3.0}).requires_grad_();
  w.set_grad(tensor({1.0}).expand({3}));
  sum(w * tensor({1.0, 2.0, 3.0})).backward();
  CHECK(values(w.grad()) == std::vector<double>{2, 3, 4});
}

TEST_CASE("add_ in place: broadcasting, alpha, and an other that overlaps this",
          "[autograd][ops]") {
  Tensor a = tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  const void* p = a.data_ptr<float>();
  a.add_(tensor({10.0, 20.0, 30.0}));  // a row broadcast down
  CHECK(a.data_ptr<float>() == p);
  CHECK(values(a) == std::vector<double>{11, 22, 33, 14, 25, 36});
  // Overlapping: s += sᵀ reads elements this writes, so it takes the copy-back path and
  // gives what s + sᵀ gives.
  Tensor s = tensor({{1.0, 2.0}, {3.0, 4.0}});
  s.add_(s.t());
  CHECK(values(s) == std::vector<double>{2, 5, 5, 8});
  // alpha != 1 takes the copy-back path too; float64 in place.
  Tensor d = tensor({1.0, 2.0}, kFloat64);
  d.add_(tensor({1.0, 1.0}, kFloat64), 0.5);
  CHECK(values(d) == std::vector<double>{1.5, 2.5});
  d.add_(tensor({0.25, 0.25}, kFloat64));
  CHECK(values(d) == std::vector<double>{1.75, 2.75});
}
