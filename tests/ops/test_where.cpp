#include "helpers.h"
#include "tensor/threads.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("where: forward with three-way broadcasting", "[ops][where]") {
  // cond [2, 1] (bool), a [3], b 0-d -> [2, 3]: row 0 takes a, row 1 takes b
  Tensor cond = tensor({{1}, {0}}, kBool);
  Tensor a = tensor({1.0, 2.0, 3.0});
  Tensor b = scalar_tensor(-1.0);
  Tensor y = where(cond, a, b);
  CHECK(y.shape() == Shape{2, 3});
  CHECK(y.dtype() == kFloat32);
  CHECK_THAT(values(y), ApproxValues({1, 2, 3, -1, -1, -1}));
}

TEST_CASE("where: a bool condition picks values of any dtype", "[ops][where]") {
  Tensor a = tensor({1.0, 2.0, 3.0, 4.0});
  Tensor b = tensor({-1.0, -2.0, -3.0, -4.0});
  CHECK_THAT(values(where(tensor({1, 0, 1, 0}, kBool), a, b)), ApproxValues({1, -2, 3, -4}));
  // a condition from a comparison: relu by hand
  CHECK_THAT(values(where(gt(b + 2.5, 0.0), b + 2.5, zeros({4}))),
             ApproxValues({1.5, 0.5, 0, 0}));
  // int64 values
  Tensor yi = where(tensor({1, 0}, kBool), tensor({5, 6}, kInt64), tensor({7, 8}, kInt64));
  CHECK(yi.to_vector<int64_t>() == std::vector<int64_t>{5, 8});
  // bool values stay bool; a bool value beside a float one takes float
  Tensor yb = where(tensor({1, 0}, kBool), tensor({1, 1}, kBool), tensor({0, 0}, kBool));
  CHECK(yb.dtype() == kBool);
  CHECK(yb.to_vector<bool>() == std::vector<bool>{true, false});
  Tensor yf = where(tensor({1, 0}, kBool), tensor({0, 1}, kBool), tensor({2.5, 3.5}));
  CHECK(yf.dtype() == kFloat32);
  CHECK_THAT(values(yf), ApproxValues({0, 3.5}));
}

TEST_CASE("where: gradients by hand, summed back over broadcast dims", "[ops][where]") {
  // cond [2, 3] = [[1, 0, 1], [0, 0, 1]], a [3], b 0-d:
  //   a gets the gradient at each picked position, summed over rows: [1, 0, 2]
  //   b gets the rest: 3 positions
  Tensor cond = tensor({{1, 0, 1}, {0, 0, 1}}, kBool);
  Tensor a = tensor({1.0, 2.0, 3.0}, kFloat64).requires_grad_();
  Tensor b = scalar_tensor(0.0, kFloat64).requires_grad_();
  sum(where(cond, a, b)).backward();
  CHECK_THAT(values(a.grad()), ApproxValues({1, 0, 2}));
  CHECK_THAT(values(b.grad()), ApproxValues({3}));
}

TEST_CASE("where: the condition is never differentiated", "[ops][where]") {
  Tensor a = tensor({1.0, -2.0}, kFloat64).requires_grad_();
  Tensor cond = gt(a, 0.0);  // made from a, but a bool tensor: no graph
  CHECK_FALSE(cond.requires_grad());
  Tensor y = where(cond, a, zeros({2}, kFloat64));
  sum(y).backward();
  CHECK_THAT(values(a.grad()), ApproxValues({1, 0}));
  CHECK_FALSE(where(cond, a.detach(), a.detach()).requires_grad());
  CHECK(error_message([] { tensor({1, 0}, kBool).requires_grad_(); }) ==
        "requires_grad_: only floating tensors can require grad, this one is bool");
}

TEST_CASE("where: gradcheck with broadcasting and views", "[ops][where][gradcheck]") {
  Tensor cond = gt(randn({2, 1, 4}), 0.0);
  auto f = [&](const std::vector<Tensor>& in) { return where(cond, in[0], in[1]); };
  CHECK(gradcheck(f, {leaf64({2, 3, 4}), leaf64({2, 3, 4})}));
  CHECK(gradcheck(f, {noncontiguous_leaf64({3, 4}), leaf64({2, 1, 1})}));
  CHECK(gradcheck(f, {leaf64({4}), noncontiguous_leaf64({2, 3, 4})}));
}

TEST_CASE("where: errors", "[ops][where][errors]") {
  Tensor a = zeros({3});
  CHECK(error_message([&] { where(zeros({2}, kBool), a, a); }) ==
        "where: shapes of cond [2], a [3] and b [3] cannot broadcast");
  CHECK(error_message([&] { where(zeros({2, 1}, kBool), zeros({2, 3}), zeros({4})); }) ==
        "where: shapes of cond [2, 1], a [2, 3] and b [4] cannot broadcast");
  CHECK(error_message([&] { where(zeros({3}, kBool), a, zeros({3}, kInt64)); }) ==
        "where: dtypes differ (float32 and int64); convert one with .to(dtype)");
  CHECK(error_message([&] { where(Tensor(), a, a); }) == "where: got an undefined tensor");
  // a 0/1 condition of another dtype is refused, as in PyTorch
  CHECK(error_message([&] { where(ones({3}), a, a); }) ==
        "where: the condition must be bool, got float32; make it with a comparison "
        "(ne(m, 0.0)) or .to(kBool)");
  CHECK(error_message([&] { where(ones({3}, kInt64), a, a); }) ==
        "where: the condition must be bool, got int64; make it with a comparison "
        "(ne(m, 0.0)) or .to(kBool)");
}

TEST_CASE("masked_fill: forward and gradient by hand", "[ops][where]") {
  // mask [3] broadcasts over the 2 rows of x [2, 3]; masked positions take -inf
  Tensor x = tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, kFloat64).requires_grad_();
  Tensor mask = tensor({0, 1, 0}, kBool);
  Tensor y = masked_fill(x, mask, -INFINITY);
  CHECK(y.shape() == Shape{2, 3});
  CHECK_THAT(values(y), ApproxValues({1, -INFINITY, 3, 4, -INFINITY, 6}));
  sum(y * 1.0).backward();  // the gradient does not reach the filled positions
  CHECK_THAT(values(x.grad()), ApproxValues({1, 0, 1, 1, 0, 1}));
}

TEST_CASE("masked_fill: int64 and bool x, and the mask must be bool", "[ops][where]") {
  Tensor x = arange(4.0, kInt64);
  Tensor mask = tensor({1, 0, 0, 1}, kBool);
  CHECK(masked_fill(x, mask, 9).to_vector<int64_t>() == std::vector<int64_t>{9, 1, 2, 9});
  Tensor xb = tensor({0, 0, 1, 1}, kBool);
  CHECK(masked_fill(xb, mask, 1.0).to_vector<bool>() == std::vector<bool>{true, false, true, true});
  // PyTorch refuses a mask of another dtype; so does attic, naming the dtype
  CHECK(error_message([] { masked_fill(tensor({1.0, 2.0}), tensor({0, 1}, kInt64), 0.5); }) ==
        "masked_fill: the mask must be bool, got int64; make it with a comparison "
        "(ne(m, 0.0)) or .to(kBool)");
  CHECK(error_message([] { masked_fill(tensor({1.0, 2.0}), tensor({0.0, 1.0}), 0.5); }) ==
        "masked_fill: the mask must be bool, got float32; make it with a comparison "
        "(ne(m, 0.0)) or .to(kBool)");
}

TEST_CASE("masked_fill: gradcheck with a broadcast mask and a view", "[ops][where][gradcheck]") {
  Tensor mask = gt(randn({3, 1}, kFloat64), 0.0);
  auto f = [&](const std::vector<Tensor>& in) { return masked_fill(in[0], mask, 2.0); };
  CHECK(gradcheck(f, {leaf64({3, 4})}));
  CHECK(gradcheck(f, {noncontiguous_leaf64({2, 3, 4})}));
}

TEST_CASE("masked_fill: the mask must not grow x", "[ops][where][errors]") {
  Tensor x = zeros({3});
  CHECK(error_message([&] { masked_fill(x, zeros({2, 3}, kBool), 0.0); }) ==
        "masked_fill: mask of shape [2, 3] does not broadcast to x's shape [3]");
  CHECK(error_message([&] { masked_fill(zeros({2, 3}), zeros({2}, kBool), 0.0); }) ==
        "masked_fill: mask of shape [2] does not broadcast to x's shape [2, 3]");
  CHECK(masked_fill(zeros({2, 3}), ones({2, 1}, kBool), 1.0).shape() == Shape{2, 3});
}

TEST_CASE("where: masked_fill's broadcast rows against picking element by element",
          "[ops][where]") {
  // x [3, 40, 700] (84000 elements: split across threads when there are two), a fill value,
  // and masks that broadcast along the row ([3, 40, 1]: the row is filled or copied whole),
  // across rows ([700]: the mask runs along the row) or not at all. x is also taken
  // transposed, so that no operand runs along the row and the general loop is checked too.
  const int saved = num_threads();
  Tensor x = arange(0.0, 84000.0, 1.0).view({3, 40, 700}) * 0.5 - 7.0;
  const std::vector<float> xv = x.to_vector<float>();
  const auto bit = [](int64_t i) { return (i * 7919) % 5 < 2; };  // a fixed, irregular mask
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    INFO("threads " << threads);
    {  // [3, 40, 1]
      std::vector<bool> m(120);
      for (int64_t i = 0; i < 120; ++i) m[size_t(i)] = bit(i);
      Tensor mask = from_vector(m, {3, 40, 1}, kBool);
      const std::vector<float> y = masked_fill(x, mask, -3.0).to_vector<float>();
      int64_t wrong = 0;
      for (int64_t i = 0; i < 84000; ++i)
        wrong += y[size_t(i)] != (bit(i / 700) ? -3.0f : xv[size_t(i)]);
      CHECK(wrong == 0);
    }
    {  // [700]
      std::vector<bool> m(700);
      for (int64_t i = 0; i < 700; ++i) m[size_t(i)] = bit(i);
      const std::vector<float> y = masked_fill(x, from_vector(m, {700}, kBool), 9.0).to_vector<float>();
      int64_t wrong = 0;
      for (int64_t i = 0; i < 84000; ++i)
        wrong += y[size_t(i)] != (bit(i % 700) ? 9.0f : xv[size_t(i)]);
      CHECK(wrong == 0);
    }
    {  // x transposed [700, 40, 3] with a full mask
      Tensor xt = x.transpose(0, 2);
      std::vector<bool> m(84000);
      for (int64_t i = 0; i < 84000; ++i) m[size_t(i)] = bit(i);
      const std::vector<float> y =
          masked_fill(xt, from_vector(m, {700, 40, 3}, kBool), 1.5).to_vector<float>();
      const std::vector<float> xtv = xt.contiguous().to_vector<float>();
      int64_t wrong = 0;
      for (int64_t i = 0; i < 84000; ++i)
        wrong += y[size_t(i)] != (bit(i) ? 1.5f : xtv[size_t(i)]);
      CHECK(wrong == 0);
    }
  }
  set_num_threads(saved);
}
