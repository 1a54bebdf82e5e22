// Tensor basics: factories, metadata, element access, printing, devices.
#include <cmath>

#include "helpers.h"

using namespace attic;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::values;

TEST_CASE("zeros, ones and full make contiguous tensors of the asked dtype", "[tensor]") {
  Tensor z = zeros({2, 3});
  CHECK(z.shape() == Shape{2, 3});
  CHECK(z.strides() == Shape{3, 1});
  CHECK(z.dtype() == kFloat32);
  CHECK(values(z) == std::vector<double>(6, 0.0));
  CHECK(values(ones({4}, kFloat64)) == std::vector<double>(4, 1.0));
  Tensor f = full({2, 2}, 2.5, kFloat64);
  CHECK(f.dtype() == kFloat64);
  CHECK(values(f) == std::vector<double>{2.5, 2.5, 2.5, 2.5});
  CHECK(zeros({3}, kInt64).dtype() == kInt64);
}

TEST_CASE("arange counts from start to end by step", "[tensor]") {
  CHECK(values(arange(5)) == std::vector<double>{0, 1, 2, 3, 4});
  CHECK(values(arange(1, 2, 0.25)) == std::vector<double>{1, 1.25, 1.5, 1.75});
  CHECK(values(arange(3, 0, -1, kInt64)) == std::vector<double>{3, 2, 1});
  CHECK(error_message([] { arange(0, 1, 0); }) == "arange: step must be nonzero");
}

TEST_CASE("tensor() takes nested braces and infers the shape", "[tensor]") {
  Tensor t = tensor({{1, 2, 3}, {4, 5, 6}});
  CHECK(t.shape() == Shape{2, 3});
  CHECK(values(t) == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(tensor({{{1}, {2}}}).shape() == Shape{1, 2, 1});
  CHECK(tensor(3.5).dim() == 0);
  CHECK(tensor({1, 2}, kInt64).dtype() == kInt64);
  CHECK(error_message([] { tensor({{1, 2}, {3}}); }) ==
        "tensor: ragged nested list (a row of shape [1] beside one of shape [2])");
}

TEST_CASE("from_vector fills a shape or makes a 1-D tensor", "[tensor]") {
  Tensor t = from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {3, 2});
  CHECK(t.shape() == Shape{3, 2});
  CHECK(t.dtype() == kFloat32);
  CHECK(from_vector(std::vector<int64_t>{7, 8}).dtype() == kInt64);
  CHECK(from_vector(std::vector<double>{7, 8}).shape() == Shape{2});
  CHECK(error_message([] { from_vector(std::vector<float>{1, 2, 3}, {2, 2}); }) ==
        "from_vector: 3 values do not fill shape [2, 2]");
}

TEST_CASE("from_vector with the shape {} makes a 0-d tensor, as torch.tensor(3.0)", "[tensor]") {
  Tensor s = from_vector(std::vector<double>{3.0}, {});
  CHECK(s.dim() == 0);
  CHECK(s.shape() == Shape{});
  CHECK(s.numel() == 1);
  CHECK(s.dtype() == kFloat64);
  CHECK(s.item<double>() == 3.0);
  CHECK(from_vector(std::vector<int64_t>{-7}, {}, kFloat32).dtype() == kFloat32);
  CHECK(from_vector(std::vector<int64_t>{-7}, {}).item<int64_t>() == -7);
  CHECK(error_message([] { from_vector(std::vector<float>{1, 2}, {}); }) ==
        "from_vector: 2 values do not fill shape []");
  CHECK(error_message([] { from_vector(std::vector<float>{}, {}); }) ==
        "from_vector: 0 values do not fill shape []");
  // without a shape it stays 1-D, an empty vector too
  CHECK(from_vector(std::vector<float>{3}).shape() == Shape{1});
  CHECK(from_vector(std::vector<float>{}).shape() == Shape{0});
}

TEST_CASE("bool tensors: factories, conversions, element access", "[tensor][bool]") {
  Tensor z = zeros({2, 3}, kBool);
  CHECK(z.dtype() == kBool);
  CHECK(dtype_size(kBool) == 1);
  CHECK(std::string(dtype_name(kBool)) == "bool");
  CHECK_FALSE(is_floating(kBool));
  CHECK(z.to_vector<bool>() == std::vector<bool>(6, false));
  CHECK(ones({2}, kBool).to_vector<bool>() == std::vector<bool>{true, true});
  CHECK(full({2}, 0.25, kBool).to_vector<bool>() == std::vector<bool>{true, true});  // nonzero
  Tensor m = from_vector(std::vector<bool>{true, false, true, true}, {2, 2});
  CHECK(m.dtype() == kBool);
  CHECK(m.data_ptr<bool>()[1] == false);
  CHECK(m[1][0].item<bool>());
  // to(kBool): nonzero is true (NaN too, as in PyTorch); back: 1 and 0
  Tensor x = tensor({0.0, -0.0, 2.5, NAN, -1.0});
  CHECK(x.to(kBool).to_vector<bool>() == std::vector<bool>{false, false, true, true, true});
  CHECK(values(x.to(kBool).to(kFloat32)) == std::vector<double>{0, 0, 1, 1, 1});
  CHECK(tensor({3, 0}, kInt64).to(kBool).to(kInt64).to_vector<int64_t>() ==
        std::vector<int64_t>{1, 0});
  // a bool tensor holds no gradient
  CHECK(error_message([] { ones({1}, kBool).requires_grad_(); }) ==
        "requires_grad_: only floating tensors can require grad, this one is bool");
  CHECK(error_message([] { randn({2}, kBool); }) == "randn: needs a floating dtype, got bool");
  CHECK(error_message([&] { m.data_ptr<float>(); }) ==
        "data_ptr: tensor has dtype bool, asked for float32");
}

TEST_CASE("empty rejects negative sizes", "[tensor]") {
  CHECK(error_message([] { empty({2, -1}); }) == "empty: negative size in shape [2, -1]");
  CHECK(zeros({0, 3}).numel() == 0);
}

TEST_CASE("metadata: size, stride, dim, numel accept negative dims", "[tensor]") {
  Tensor t = zeros({2, 3, 4});
  CHECK(t.dim() == 3);
  CHECK(t.numel() == 24);
  CHECK(t.size(-1) == 4);
  CHECK(t.stride(0) == 12);
  CHECK(t.stride(-2) == 4);
  CHECK(t.is_contiguous());
  CHECK_FALSE(t.transpose(0, 2).is_contiguous());
  CHECK(error_message([&] { t.size(3); }) ==
        "size: dim 3 is out of range for a tensor of 3 dims (expected -3 to 2)");
}

TEST_CASE("item returns the one element, converted", "[tensor]") {
  CHECK(tensor(2.5).item<float>() == 2.5f);
  CHECK(tensor({{7}}, kInt64).item<int64_t>() == 7);
  CHECK(tensor(2.5).item<double>() == 2.5);
  CHECK(error_message([] { zeros({2, 2}).item<float>(); }) ==
        "item: tensor of shape [2, 2] has 4 elements, not one");
}

TEST_CASE("data_ptr checks the element type", "[tensor]") {
  Tensor t = zeros({2});
  CHECK(t.data_ptr<float>() != nullptr);
  CHECK(error_message([&] { t.data_ptr<double>(); }) ==
        "data_ptr: tensor has dtype float32, asked for float64");
}

TEST_CASE("to_vector reads a strided tensor in row-major order", "[tensor]") {
  Tensor t = tensor({{1, 2}, {3, 4}}).t();
  CHECK(t.to_vector<float>() == std::vector<float>{1, 3, 2, 4});
  CHECK(t.to_vector<int64_t>() == std::vector<int64_t>{1, 3, 2, 4});
}

TEST_CASE("to(dtype) converts values", "[tensor]") {
  Tensor t = tensor({1.75, -2.5});
  CHECK(t.to(kFloat64).dtype() == kFloat64);
  CHECK(values(t.to(kFloat64)) == std::vector<double>{1.75, -2.5});
  CHECK(values(t.to(kInt64)) == std::vector<double>{1, -2});  // truncation toward zero
  CHECK(t.to(kFloat32).is_same(t));
}

TEST_CASE("an undefined tensor says so", "[tensor]") {
  Tensor u;
  CHECK_FALSE(u.defined());
  CHECK(error_message([&] { u.shape(); }) ==
        "Tensor: this tensor is undefined (default-constructed)");
  CHECK(u.str() == "tensor(undefined)");
}

#ifndef ATTIC_WITH_CUDA
TEST_CASE("without CUDA, moving to the GPU is a clear error", "[tensor][device]") {
  CHECK(error_message([] { ones({2}).to(Device::CUDA); }) == "attic was built without CUDA");
  CHECK(error_message([] { zeros({2}, TensorOptions().device(Device::CUDA)); }) ==
        "attic was built without CUDA");
  CHECK(ones({2}).to(Device::CPU).device() == Device::CPU);
}
#endif

// ---- printing

TEST_CASE("printing follows PyTorch's layout", "[tensor][print]") {
  CHECK(tensor({{1, 2}, {3, 4}}).str() ==
        "tensor([[1., 2.],\n"
        "        [3., 4.]])");
  CHECK(tensor({0.5, -1.25}).str() == "tensor([ 0.5000, -1.2500])");
  CHECK(tensor(3).str() == "tensor(3.)");
  CHECK(tensor({1, 2}, kInt64).str() == "tensor([1, 2])");
  CHECK(tensor({1.5}, kFloat64).str() == "tensor([1.5000], dtype=float64)");
  CHECK(tensor({1e-6, 1}).str() == "tensor([1.0000e-06, 1.0000e+00])");
  CHECK(zeros({0}).str() == "tensor([])");
}

TEST_CASE("printing a bool tensor shows true and false, right-aligned", "[tensor][print]") {
  // PyTorch prints tensor([ True, False]); attic prints C++'s words, as in requires_grad=true
  CHECK(tensor({1, 0, 1}, kBool).str() == "tensor([ true, false,  true])");
  CHECK(tensor({{1, 1}, {0, 1}}, kBool).str() == "tensor([[ true,  true],\n        [false,  true]])");
  CHECK(ones({2}, kBool).str() == "tensor([true, true])");
  CHECK(scalar_tensor(0, kBool).str() == "tensor(false)");
}

TEST_CASE("printing a 3-D tensor separates blocks with a blank line", "[tensor][print]") {
  CHECK(arange(8).view({2, 2, 2}).str() ==
        "tensor([[[0., 1.],\n"
        "         [2., 3.]],\n"
        "\n"
        "        [[4., 5.],\n"
        "         [6., 7.]]])");
}

TEST_CASE("printing shows requires_grad on leaves and grad_fn otherwise", "[tensor][print]") {
  Tensor a = tensor({1, 2}).requires_grad_();
  CHECK(a.str() == "tensor([1., 2.], requires_grad=true)");
  CHECK((a + a).str() == "tensor([2., 4.], grad_fn=<AddBackward>)");
  std::ostringstream os;
  os << a.detach();
  CHECK(os.str() == "tensor([1., 2.])");
}

TEST_CASE("printing a large tensor summarizes with ...", "[tensor][print]") {
  const std::string s = arange(2000).str();
  CHECK(s == "tensor([   0.,    1.,    2., ..., 1997., 1998., 1999.])");
  const std::string m = zeros({40, 40}).str();
  CHECK(m.find("...") != std::string::npos);
}

TEST_CASE("from_vector keeps int64 values exactly, beyond 2^53", "[tensor]") {
  const std::vector<int64_t> v = {INT64_MIN, -1, (int64_t(1) << 53) + 1, INT64_MAX};
  CHECK(from_vector(v).to_vector<int64_t>() == v);
}
