// decayed_cumsum: hand-worked values, cumsum at r = 1, the reverse form, gradcheck to the
// second order, and errors.
#include "autograd/grad_mode.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("decayed_cumsum by hand, forward and reverse", "[ops][decayed_cumsum]") {
  // x = [1, 2, 3], r = [9, 0.5, 2]: y = [1, 2 + 0.5·1, 3 + 2·2.5] = [1, 2.5, 8]
  // reverse: y_2 = 3, y_1 = 2 + 2·3 = 8, y_0 = 1 + 0.5·8 = 5
  const Tensor x = tensor({1, 2, 3}, kFloat64), r = tensor({9, 0.5, 2}, kFloat64);
  CHECK_THAT(values(decayed_cumsum(x, r, 0)), ApproxValues({1, 2.5, 8}, 1e-12));
  CHECK_THAT(values(decayed_cumsum(x, r, 0, /*reverse=*/true)), ApproxValues({5, 8, 3}, 1e-12));
  // r = 1 is cumsum, here along dim 1 of [2, 4, 3] with r broadcast from [4, 1]
  manual_seed(3);
  const Tensor x3 = randn({2, 4, 3}, kFloat64);
  CHECK_THAT(values(decayed_cumsum(x3, ones({4, 1}, kFloat64), 1)),
             ApproxValues(values(cumsum(x3, 1)), 1e-12));
}

TEST_CASE("decayed_cumsum gradcheck, first and second order", "[ops][decayed_cumsum][grad]") {
  manual_seed(4);
  for (const bool reverse : {false, true}) {
    // r broadcast over dims 1 and 3 of x [2, 3, 5, 2], the scan along dim 2
    const Tensor x = leaf64({2, 3, 5, 2}), r = leaf64({2, 1, 5, 1});
    CHECK(gradcheck([reverse](const std::vector<Tensor>& v) {
      return decayed_cumsum(v[0], v[1], 2, reverse);
    }, {x, r}));
    // the gradient itself, recorded, checked again
    const Tensor w = randn({2, 3, 5, 2}, kFloat64);
    CHECK(gradcheck([&, reverse](const std::vector<Tensor>& v) {
      autograd::EnableGradGuard on;
      const Tensor a = v[0] * 1.0, b = v[1] * 1.0;
      a.retain_grad();
      b.retain_grad();
      sum(decayed_cumsum(a, b, 2, reverse) * decayed_cumsum(a, b, 2, reverse) * w)
          .backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
      const Tensor g = sum(a.grad()) + sum(b.grad() * b.grad());
      for (const Tensor& t : {a, b, v[0], v[1]}) t.set_grad({});
      return g;
    }, {x, r}));
  }
}

TEST_CASE("decayed_cumsum rejects an r that does not broadcast", "[ops][decayed_cumsum][errors]") {
  CHECK(error_message([] { decayed_cumsum(zeros({2, 3}), zeros({2}), 1); }) ==
        "decayed_cumsum: r of shape [2] does not broadcast to x's shape [2, 3]");
}
