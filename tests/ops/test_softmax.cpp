// softmax and log_softmax along any dim.
#include <cmath>
#include <limits>
#include <memory>

#include "helpers.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

TEST_CASE("softmax and log_softmax of a vector by hand", "[ops][softmax]") {
  // e^0, e^{ln 2}, e^{ln 3} = 1, 2, 3; their sum is 6.
  Tensor x = tensor({0, std::log(2.0), std::log(3.0)}, kFloat64);
  CHECK_THAT(values(softmax(x, 0)), ApproxValues({1.0 / 6, 2.0 / 6, 3.0 / 6}, 1e-12));
  CHECK_THAT(values(log_softmax(x, -1)),
             ApproxValues({std::log(1.0 / 6), std::log(2.0 / 6), std::log(0.5)}, 1e-12));
}

TEST_CASE("softmax does not overflow for large inputs", "[ops][softmax]") {
  // e^1000 overflows; subtracting the max first gives e^0 / (e^0 + e^0).
  CHECK(values(softmax(tensor({1000, 1000}), 0)) == std::vector<double>{0.5, 0.5});
  // log_softmax([1000, 0]) = [−log(1 + e^−1000), −1000 − log(1 + e^−1000)] = [0, −1000]
  CHECK_THAT(values(log_softmax(tensor({1000, 0}, kFloat64), 0)), ApproxValues({0, -1000}));
  // A −inf logit (a masked position) gets probability 0.
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(values(softmax(tensor({0, -inf, 0}), 0)) == std::vector<double>{0.5, 0, 0.5});
}

TEST_CASE("softmax along a dim other than the last", "[ops][softmax]") {
  // Columns (0, 0), (0, ln 3), (1, 1): [1/2, 1/2], [1/4, 3/4], [1/2, 1/2]
  Tensor x = tensor({{0, 0, 1}, {0, std::log(3.0), 1}}, kFloat64);
  Tensor y = softmax(x, 0);
  CHECK(y.shape() == Shape{2, 3});
  CHECK_THAT(values(y), ApproxValues({0.5, 0.25, 0.5, 0.5, 0.75, 0.5}, 1e-12));
  CHECK_THAT(values(softmax(x.t(), 1).t()), ApproxValues(values(y), 1e-12));
  CHECK_THAT(values(log_softmax(x, 0)),
             ApproxValues({std::log(0.5), std::log(0.25), std::log(0.5), std::log(0.5),
                           std::log(0.75), std::log(0.5)}, 1e-12));
  // Every slice along the chosen dim of a 3-D tensor sums to 1.
  Tensor z = randn({2, 3, 4}, kFloat64);
  for (int64_t d = 0; d < 3; ++d)
    CHECK_THAT(values(sum(softmax(z, d), {d})), ApproxValues(std::vector<double>(size_t(24 / z.size(d)), 1.0)));
}

TEST_CASE("softmax of a 0-d tensor is 1", "[ops][softmax]") {
  CHECK(softmax(scalar_tensor(7.0), 0).item<double>() == 1);
  CHECK(log_softmax(scalar_tensor(7.0), -1).item<double>() == 0);
  CHECK(softmax(scalar_tensor(7.0), 0).dim() == 0);
}

TEST_CASE("softmax gradient by hand", "[ops][softmax][grad]") {
  // y = softmax([0, 0]) = [1/2, 1/2]; dy0/dx0 = y0 (1 − y0) = 1/4, dy0/dx1 = −y0 y1 = −1/4
  Tensor x = tensor({0, 0}, kFloat64).requires_grad_();
  softmax(x, 0)[0].backward();
  CHECK_THAT(values(x.grad()), ApproxValues({0.25, -0.25}, 1e-12));
  // log_softmax: d/dx Σ_i w_i y_i = w − softmax · Σ w; w = [1, 3]: [1 − 2, 3 − 2]
  x.set_grad(Tensor());
  sum(log_softmax(x, 0) * tensor({1, 3}, kFloat64)).backward();
  CHECK_THAT(values(x.grad()), ApproxValues({-1, 1}, 1e-12));
}

TEST_CASE("softmax and log_softmax gradcheck", "[ops][softmax][grad]") {
  Tensor x = leaf64({3, 4, 5});
  for (int64_t d : {0, 1, 2, -1}) {
    CHECK(gradcheck([d](const Inputs& v) { return softmax(v[0], d); }, {x}));
    CHECK(gradcheck([d](const Inputs& v) { return log_softmax(v[0], d); }, {x}));
  }
  Tensor nc = noncontiguous_leaf64({4, 5});
  CHECK(gradcheck([](const Inputs& v) { return softmax(v[0], 1); }, {nc}));
  CHECK(gradcheck([](const Inputs& v) { return log_softmax(v[0], 0); }, {nc}));
}

TEST_CASE("softmax and log_softmax: a recorded backward gives exact second derivatives",
          "[ops][softmax][grad]") {
  // The first gradient of sum(f(x) · w), recorded with create_graph, is itself checked by
  // gradcheck: before, y entered it as a constant and the second derivative came out wrong.
  manual_seed(11);
  for (const bool log : {false, true})
    for (const int64_t dim : {1, 0}) {
      const Tensor w = randn({3, 4}, kFloat64);
      CHECK(gradcheck([&](const Inputs& in) {
        autograd::EnableGradGuard on;  // gradcheck's finite differences run without grad mode
        Tensor x = in[0] * 1.0;  // a non-leaf copy, so that in[0].grad stays untouched
        x.retain_grad();
        const Tensor y = log ? log_softmax(x, dim) : softmax(x, dim);
        sum(y * w).backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
        // in[0].grad now holds a graph that holds in[0] (a reference cycle, as in PyTorch
        // with create_graph): let it go.
        in[0].set_grad({});
        return x.grad();
      }, {leaf64({3, 4})}));
    }
}

TEST_CASE("softmax's node does not keep its own output alive", "[ops][softmax][grad]") {
  // The node saves the output detached; saving it with its grad_fn would be a cycle
  // (output -> node -> output) and leak both.
  Tensor x = leaf64({2, 3});
  std::weak_ptr<TensorImpl> y_impl, z_impl;
  {
    Tensor y = softmax(x, 1), z = log_softmax(x, 0);
    y_impl = y.impl_ptr();
    z_impl = z.impl_ptr();
  }
  CHECK(y_impl.expired());
  CHECK(z_impl.expired());
}

TEST_CASE("softmax errors", "[ops][softmax][errors]") {
  CHECK(error_message([] { softmax(zeros({2}, kInt64), 0); }) ==
        "softmax: needs a floating tensor, got int64");
  CHECK(error_message([] { log_softmax(zeros({2, 3}), 2); }) ==
        "log_softmax: dim 2 is out of range for a tensor of 2 dims (expected -2 to 1)");
}
