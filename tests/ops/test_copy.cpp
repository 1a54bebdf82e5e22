// clone, contiguous, to(dtype), and the in-place writes.
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::values;

TEST_CASE("clone copies, contiguous copies only when needed", "[copy]") {
  Tensor a = arange(6).view({2, 3});
  Tensor c = a.clone();
  CHECK_FALSE(c.shares_storage(a));
  c.fill_(0);
  CHECK(values(a) == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK(a.contiguous().is_same(a));
  Tensor t = a.t().contiguous();
  CHECK(t.is_contiguous());
  CHECK(t.strides() == Shape{2, 1});
  CHECK(values(t) == std::vector<double>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("copy_ broadcasts the source and handles overlap", "[copy]") {
  Tensor a = zeros({2, 3});
  a.copy_(tensor({1, 2, 3}));
  CHECK(values(a) == std::vector<double>{1, 2, 3, 1, 2, 3});
  Tensor sq = arange(4).view({2, 2});
  sq.copy_(sq.t());  // overlapping source: copied out first
  CHECK(values(sq) == std::vector<double>{0, 2, 1, 3});
  CHECK(error_message([&] { a.copy_(zeros({3, 3})); }) ==
        "copy_: shapes [3, 3] and [2, 3] cannot broadcast (3 vs 2 in dim 0)");
  Tensor i = zeros({2}, kInt64);
  i.copy_(tensor({1.9, -1.9}));  // converts, truncating
  CHECK(i.to_vector<int64_t>() == std::vector<int64_t>{1, -1});
}

TEST_CASE("add_, mul_ and fill_ write in place", "[copy]") {
  Tensor a = ones({2, 2});
  a.add_(tensor({1, 2}), 0.5).mul_(2);
  CHECK(values(a) == std::vector<double>{3, 4, 3, 4});
  a.zero_();
  CHECK(values(a) == std::vector<double>{0, 0, 0, 0});
  // mul_ on a strided view writes through the view's strides (the contiguous case above
  // takes the one-pass path).
  Tensor b = tensor({{1, 2}, {3, 4}});
  b.t().mul_(3);
  CHECK(values(b) == std::vector<double>{3, 6, 9, 12});
}

TEST_CASE("add_ and mul_ on a bool tensor: OR with a bool, nothing that leaves bool", "[copy][bool]") {
  Tensor m = tensor({0, 1, 0}, kBool);
  m.add_(tensor({1, 0, 0}, kBool));
  CHECK(m.to_vector<bool>() == std::vector<bool>{true, true, false});
  CHECK(error_message([&] { m.add_(ones({3})); }) ==
        "add_: the sum is float32, which this bool tensor cannot hold; use logical_or, or "
        "convert with .to(dtype) first");
  CHECK(error_message([&] { m.add_(m, 2.0); }) ==
        "add_: the sum is float32, which this bool tensor cannot hold; use logical_or, or "
        "convert with .to(dtype) first");
  CHECK(error_message([&] { m.mul_(0.5); }) ==
        "mul_: a bool tensor cannot hold a product with a scalar; use logical_and, or convert "
        "with .to(dtype) first");
  CHECK(m.to_vector<bool>() == std::vector<bool>{true, true, false});  // unchanged
  // a float tensor adds a bool one in place: x += mask
  Tensor x = zeros({3});
  x.add_(m, 0.5);
  CHECK(values(x) == std::vector<double>{0.5, 0.5, 0});
}

TEST_CASE("in-place writes refuse tensors autograd tracks, unless under NoGradGuard", "[copy][grad]") {
  Tensor w = ones({2}).requires_grad_();
  CHECK(error_message([&] { w.fill_(0); }) ==
        "fill_: in-place write to a tensor that requires grad; do it inside NoGradGuard "
        "(as optimizers do) or on a detach()ed tensor");
  {
    NoGradGuard g;
    w.add_(tensor({1, 2}), -0.5);
  }
  CHECK(values(w) == std::vector<double>{0.5, 0});
  w.detach().fill_(7);  // the detached handle shares storage
  CHECK(values(w) == std::vector<double>{7, 7});
}

TEST_CASE("clone, contiguous and to(dtype) pass gradients through", "[copy][grad]") {
  Tensor x = leaf64({3, 2});
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].clone() * v[0]; }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].t().contiguous(); }, {x}));
  Tensor f = ones({2}).requires_grad_();
  Tensor y = f.to(kFloat64) * 3.0;
  sum(y).backward();
  CHECK(f.grad().dtype() == kFloat32);
  CHECK(values(f.grad()) == std::vector<double>{3, 3});
}
