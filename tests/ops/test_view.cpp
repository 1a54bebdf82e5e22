// Views share storage with their base; each is differentiable.
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::gradcheck;
using attic::testing::leaf64;
using attic::testing::noncontiguous_leaf64;
using attic::testing::values;

TEST_CASE("view reshapes without copying and infers -1", "[view]") {
  Tensor a = arange(6);
  Tensor v = a.view({2, -1});
  CHECK(v.shape() == Shape{2, 3});
  CHECK(v.shares_storage(a));
  CHECK(values(v) == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK(error_message([&] { a.view({4, -1}); }) == "view: shape [4, -1] is invalid for input of size 6");
  CHECK(error_message([&] { a.view({-1, -1}); }) == "view: only one dimension can be -1 in [-1, -1]");
}

TEST_CASE("view refuses strides it cannot express, reshape copies instead", "[view]") {
  Tensor t = arange(6).view({2, 3}).t();  // [3, 2], strides [1, 3]
  CHECK(error_message([&] { t.view({6}); }) ==
        "view: shape [6] is not compatible with the input's shape [3, 2] and strides [1, 3]; "
        "use reshape() (which copies) or contiguous() first");
  Tensor r = t.reshape({6});
  CHECK_FALSE(r.shares_storage(t));
  CHECK(values(r) == std::vector<double>{0, 3, 1, 4, 2, 5});
  Tensor base = arange(6);
  CHECK(base.reshape({3, 2}).shares_storage(base));
}

TEST_CASE("writing through a view changes the base", "[view]") {
  Tensor base = zeros({3, 4});
  base.narrow(1, 1, 2).fill_(1);         // columns 1..2
  base.select(0, 2).copy_(tensor({5, 6, 7, 8}));  // last row
  base.t()[0].fill_(9);                  // column 0 through a transpose
  CHECK(values(base) == std::vector<double>{9, 1, 1, 0,
                                            9, 1, 1, 0,
                                            9, 6, 7, 8});
}

TEST_CASE("transpose and permute swap shapes and strides", "[view]") {
  Tensor a = arange(24).view({2, 3, 4});
  Tensor p = a.permute({2, 0, 1});
  CHECK(p.shape() == Shape{4, 2, 3});
  CHECK(p.strides() == Shape{1, 12, 4});
  CHECK(p.shares_storage(a));
  // p[i][j][k] = a[j][k][i]
  CHECK(p.select(0, 3).select(0, 1).select(0, 2).item<float>() == a[1][2][3].item<float>());
  CHECK(a.transpose(0, -1).shape() == Shape{4, 3, 2});
  CHECK(error_message([&] { a.permute({0, 0, 1}); }) == "permute: dim 0 repeats in [0, 0, 1]");
  CHECK(error_message([&] { a.permute({0, 1}); }) ==
        "permute: got 2 dims [0, 1] for a tensor of 3 dims");
}

TEST_CASE("squeeze and unsqueeze add and drop size-1 dims", "[view]") {
  Tensor a = zeros({2, 1, 3, 1});
  CHECK(a.squeeze().shape() == Shape{2, 3});
  CHECK(a.squeeze(1).shape() == Shape{2, 3, 1});
  CHECK(a.squeeze(0).shape() == Shape{2, 1, 3, 1});  // size 2: unchanged
  CHECK(zeros({2, 3}).unsqueeze(0).shape() == Shape{1, 2, 3});
  CHECK(zeros({2, 3}).unsqueeze(-1).shape() == Shape{2, 3, 1});
  CHECK(zeros({2, 3}).unsqueeze(1).shape() == Shape{2, 1, 3});
}

TEST_CASE("slice follows Python's rules, including step and negative bounds", "[view]") {
  Tensor a = arange(10);
  CHECK(values(a.slice(0, 2, 8, 3)) == std::vector<double>{2, 5});
  CHECK(values(a.slice(0, -3, 100)) == std::vector<double>{7, 8, 9});
  CHECK(a.slice(0, 5, 2).numel() == 0);
  CHECK(values(a.narrow(0, 4, 2)) == std::vector<double>{4, 5});
  CHECK(error_message([&] { a.narrow(0, 8, 3); }) == "narrow: start 8 + length 3 exceeds size 10 of dim 0");
  CHECK(error_message([&] { a.slice(0, 0, 5, 0); }) == "slice: step must be positive, got 0");
}

TEST_CASE("select drops a dim and checks the index", "[view]") {
  Tensor a = arange(6).view({2, 3});
  CHECK(values(a.select(1, -1)) == std::vector<double>{2, 5});
  CHECK(a[1].shape() == Shape{3});
  CHECK(error_message([&] { a.select(0, 2); }) ==
        "select: index 2 is out of range for dim 0 of size 2");
}

TEST_CASE("expand repeats size-1 dims with stride 0", "[view]") {
  Tensor a = tensor({{1}, {2}});
  Tensor e = a.expand({3, 2, 4});
  CHECK(e.shape() == Shape{3, 2, 4});
  CHECK(e.strides() == Shape{0, 1, 0});
  CHECK(values(e[2][1]) == std::vector<double>{2, 2, 2, 2});
  CHECK(a.expand({-1, 5}).shape() == Shape{2, 5});
  CHECK(error_message([&] { a.expand({3, 4}); }) ==
        "expand: the input's size 2 at dim 0 must be 1 or equal the target size 3 ([2, 1] -> [3, 4])");
}

TEST_CASE("views keep autograd: gradcheck of every view op", "[view][grad]") {
  Tensor x = leaf64({2, 3, 4});
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].view({6, 4}) * 2.0; }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].reshape({4, 6}); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].transpose(0, 2); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].permute({1, 2, 0}); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].unsqueeze(1).squeeze(); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].narrow(2, 1, 2); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].slice(2, 0, 4, 2); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].select(1, 2); }, {x}));
  Tensor y = leaf64({3, 1});
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].expand({2, 3, 4}); }, {y}));
}

TEST_CASE("views of non-contiguous inputs pass gradcheck", "[view][grad]") {
  Tensor x = noncontiguous_leaf64({3, 4});
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].reshape({2, 6}); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].t().select(0, 1); }, {x}));
  CHECK(gradcheck([](const std::vector<Tensor>& v) { return v[0].slice(1, 1, 4, 2) * v[0].narrow(1, 0, 2); }, {x}));
}

TEST_CASE("a view's gradient lands in the right place of the base", "[view][grad]") {
  Tensor x = zeros({2, 3}).requires_grad_();
  sum(x.select(1, 2) * tensor({2, 3})).backward();
  CHECK(values(x.grad()) == std::vector<double>{0, 0, 2, 0, 0, 3});
}
