// cross_entropy: mean −log softmax(logits)[n, target_n] over targets not ignored.
#include <cmath>
#include <limits>

#include "helpers.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

using Inputs = std::vector<Tensor>;

namespace {
Tensor targets_of(std::vector<int64_t> t) { return from_vector(t); }
}  // namespace

TEST_CASE("cross_entropy of uniform logits is exactly log C", "[ops][cross_entropy]") {
  // Every class has probability 1/C, so each row's loss is −log(1/C) = log C.
  Tensor loss = cross_entropy(zeros({2, 5}, kFloat64), targets_of({0, 4}));
  CHECK(loss.dim() == 0);
  CHECK(loss.item<double>() == std::log(5.0));
  CHECK(cross_entropy(full({2, 3}, 7.0, kFloat64), targets_of({1, 2})).item<double>() ==
        std::log(3.0));
  CHECK(cross_entropy(zeros({1, 50257}), targets_of({123})).item<float>() ==
        Approx(std::log(50257.0)).epsilon(1e-6));
}

TEST_CASE("cross_entropy by hand", "[ops][cross_entropy]") {
  // logits [0, ln 3]: softmax = [1/4, 3/4]. Target 1: −log(3/4); target 0: −log(1/4).
  Tensor x = tensor({{0, std::log(3.0)}, {0, std::log(3.0)}}, kFloat64);
  CHECK(cross_entropy(x.narrow(0, 0, 1), targets_of({1})).item<double>() ==
        Approx(std::log(4.0 / 3)));
  CHECK(cross_entropy(x, targets_of({1, 0})).item<double>() ==
        Approx((std::log(4.0 / 3) + std::log(4.0)) / 2));
  // Large logits do not overflow: [1000, 0] gives −log_softmax = [0, 1000].
  Tensor big = tensor({{1000, 0}});
  CHECK(cross_entropy(big, targets_of({0})).item<double>() == Approx(0).margin(1e-6));
  CHECK(cross_entropy(big, targets_of({1})).item<double>() == Approx(1000));
}

TEST_CASE("cross_entropy skips ignored targets in the sum and the count", "[ops][cross_entropy]") {
  // The middle row is ignored; the mean runs over the other two (see the test above).
  Tensor x = tensor({{0, std::log(3.0)}, {5, -5}, {0, std::log(3.0)}}, kFloat64);
  const double expected = (std::log(4.0 / 3) + std::log(4.0)) / 2;
  CHECK(cross_entropy(x, targets_of({1, -100, 0})).item<double>() == Approx(expected));
  // ignore_index may be a real class: here class 1 rows drop out, leaving −log(1/4).
  CHECK(cross_entropy(x, targets_of({1, 1, 0}), 1).item<double>() == Approx(std::log(4.0)));
  // An ignored row's logits may even be −inf without spoiling the loss.
  const double inf = std::numeric_limits<double>::infinity();
  Tensor masked = tensor({{0, std::log(3.0)}, {-inf, -inf}}, kFloat64);
  CHECK(cross_entropy(masked, targets_of({1, -100})).item<double>() == Approx(std::log(4.0 / 3)));
}

TEST_CASE("cross_entropy with every target ignored is nan, as in PyTorch", "[ops][cross_entropy]") {
  CHECK(std::isnan(cross_entropy(zeros({2, 3}), targets_of({-100, -100})).item<double>()));
  CHECK(std::isnan(cross_entropy(zeros({0, 3}), targets_of({})).item<double>()));
}

TEST_CASE("cross_entropy gradient by hand: (softmax - onehot) / count", "[ops][cross_entropy][grad]") {
  // Rows 0 and 2 count (count = 2); row 1 is ignored and gets no gradient.
  // softmax([0, ln 3]) = [1/4, 3/4]; target 1: [1/4, −1/4] / 2; target 0: [−3/4, 3/4] / 2.
  Tensor x = tensor({{0, std::log(3.0)}, {5, -5}, {0, std::log(3.0)}}, kFloat64)
                 .requires_grad_();
  (cross_entropy(x, targets_of({1, -100, 0})) * 4.0).backward();  // and the incoming 4
  CHECK_THAT(values(x.grad()), ApproxValues({0.5, -0.5, 0, 0, -1.5, 1.5}, 1e-12));
  Tensor xf = zeros({2, 4}).requires_grad_();
  cross_entropy(xf, targets_of({3, 0})).backward();
  CHECK(xf.grad().dtype() == kFloat32);
  CHECK_THAT(values(xf.grad()), ApproxValues({0.125, 0.125, 0.125, -0.375,
                                              -0.375, 0.125, 0.125, 0.125}));
}

TEST_CASE("cross_entropy gradcheck, with ignored targets and strided logits", "[ops][cross_entropy][grad]") {
  Tensor t = targets_of({2, 0, 4, 1});
  Tensor ti = targets_of({2, -100, 4, -100});
  Tensor x = leaf64({4, 5});
  CHECK(gradcheck([&](const Inputs& v) { return cross_entropy(v[0], t); }, {x}));
  CHECK(gradcheck([&](const Inputs& v) { return cross_entropy(v[0], ti); }, {x}));
  CHECK(gradcheck([&](const Inputs& v) { return cross_entropy(v[0], t, 4); }, {x}));
  Tensor nc = noncontiguous_leaf64({4, 5});
  CHECK(gradcheck([&](const Inputs& v) { return cross_entropy(v[0], ti); }, {nc}));
}

TEST_CASE("cross_entropy's backward is itself differentiable", "[ops][cross_entropy][grad]") {
  // gradcheck of x -> dloss/dx (built with create_graph) checks the second derivatives,
  // per counted row w_n (diag(p) − p pᵀ), p = softmax(x[n]).
  Tensor t = targets_of({2, -100, 4});
  auto grad_of_loss = [&](const Inputs& v) {
    autograd::EnableGradGuard grad_on;  // gradcheck calls this under NoGradGuard too
    cross_entropy(v[0], t).backward(Tensor(), /*retain_graph=*/false, /*create_graph=*/true);
    Tensor g = v[0].grad();
    v[0].set_grad(Tensor());
    return g;
  };
  CHECK(gradcheck(grad_of_loss, {leaf64({3, 5})}));
}

TEST_CASE("cross_entropy matches the composite of log_softmax and gather", "[ops][cross_entropy][grad]") {
  Tensor t = targets_of({2, 0, 4});
  Tensor x = leaf64({3, 5});
  Tensor y = x.detach().clone().requires_grad_();
  Tensor fused = cross_entropy(x, t);
  Tensor composite = -mean(gather(log_softmax(y, 1), 1, t.unsqueeze(1)));
  CHECK(fused.item<double>() == Approx(composite.item<double>()).epsilon(1e-12));
  fused.backward();
  composite.backward();
  CHECK_THAT(values(x.grad()), ApproxValues(values(y.grad()), 1e-12));
}

TEST_CASE("cross_entropy errors name the bad target and the class count", "[ops][cross_entropy][errors]") {
  Tensor x = zeros({2, 5});
  CHECK(error_message([&] { cross_entropy(x, targets_of({1, 5})); }) ==
        "cross_entropy: target 5 is out of range for 5 classes (expected 0 to 4, or "
        "ignore_index -100)");
  CHECK(error_message([&] { cross_entropy(x, targets_of({-1, 0}), 3); }) ==
        "cross_entropy: target -1 is out of range for 5 classes (expected 0 to 4, or "
        "ignore_index 3)");
  CHECK(error_message([&] { cross_entropy(x, targets_of({0, 1, 2})); }) ==
        "cross_entropy: targets of shape [3] do not match logits [2, 5] (expected [2])");
  CHECK(error_message([&] { cross_entropy(zeros({2, 3, 4}), targets_of({0, 1})); }) ==
        "cross_entropy: logits must be [N, C], got [2, 3, 4]");
  CHECK(error_message([&] { cross_entropy(x, zeros({2})); }) ==
        "cross_entropy: indices must be int64, got float32");
  CHECK(error_message([&] { cross_entropy(zeros({2, 5}, kInt64), targets_of({0, 1})); }) ==
        "cross_entropy: needs a floating tensor, got int64");
  CHECK(error_message([&] { cross_entropy(zeros({2, 0}), targets_of({0, 1})); }) ==
        "cross_entropy: logits [2, 0] have no classes");
}
