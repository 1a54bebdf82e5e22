// Chapter 1 exercise check: the views worked out by hand (strides.cpp) must equal the ones
// attic's Tensor makes, in shape, strides and offset, and offset_of must find every element.
// All comparisons are of integers, so they are exact.
#include "tests/catch.h"

#include <stdexcept>

#include "ops/ops.h"
#include "strides.h"

using namespace attic;
using exercise::View;

namespace {

// base = 0, 1, 2, ... in the given shape: the value of each element is its storage index.
Tensor counting(const Shape& shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return arange(n, TensorOptions(kInt64)).view(shape);
}

// A fresh tensor's view of shape, built with your contiguous_strides.
View contiguous_view(const Shape& shape) {
  return View{shape, exercise::contiguous_strides(shape), 0};
}

// Every index of shape, in row-major order.
std::vector<std::vector<int64_t>> all_indices(const Shape& shape) {
  std::vector<std::vector<int64_t>> out;
  for (int64_t s : shape)
    if (s == 0) return out;
  std::vector<int64_t> idx(shape.size(), 0);
  while (true) {
    out.push_back(idx);
    int64_t d = int64_t(shape.size()) - 1;
    for (; d >= 0; --d) {
      if (++idx[size_t(d)] < shape[size_t(d)]) break;
      idx[size_t(d)] = 0;
    }
    if (d < 0) return out;
  }
}

// mine must describe the attic view t of a counting() base: same shape, strides and offset,
// and offset_of(mine, index) must be the value t holds at index (its storage index).
void same_view(const View& mine, const Tensor& t) {
  CHECK(mine.shape == t.shape());
  CHECK(mine.strides == t.strides());
  CHECK(mine.offset == t.storage_offset());
  if (mine.shape != t.shape()) return;
  const std::vector<int64_t> values = t.contiguous().to_vector<int64_t>();
  const auto indices = all_indices(t.shape());
  for (size_t e = 0; e < indices.size(); ++e) {
    INFO("element " << str(indices[e]));
    CHECK(exercise::offset_of(mine, indices[e]) == values[e]);
  }
}

}  // namespace

TEST_CASE("exercise 01: contiguous_strides equals the strides of a fresh tensor", "[exercise01]") {
  for (const Shape& shape : std::vector<Shape>{{}, {5}, {2, 3}, {4, 1, 3}, {2, 3, 4, 5}, {7, 1}}) {
    INFO("shape " << str(shape));
    CHECK(exercise::contiguous_strides(shape) == zeros(shape).strides());
  }
}

TEST_CASE("exercise 01: offset_of finds every element of a contiguous tensor", "[exercise01]") {
  for (const Shape& shape : std::vector<Shape>{{6}, {3, 4}, {2, 3, 4}}) {
    INFO("shape " << str(shape));
    same_view(contiguous_view(shape), counting(shape));
  }
}

TEST_CASE("exercise 01: offset_of refuses an index of the wrong length or out of range",
          "[exercise01]") {
  const View v = contiguous_view({3, 4});
  CHECK_THROWS_AS(exercise::offset_of(v, {1}), std::out_of_range);
  CHECK_THROWS_AS(exercise::offset_of(v, {3, 0}), std::out_of_range);
  CHECK_THROWS_AS(exercise::offset_of(v, {0, -1}), std::out_of_range);
}

TEST_CASE("exercise 01: transpose_view equals Tensor::transpose", "[exercise01]") {
  const Tensor base = counting({2, 3, 4});
  const View v = contiguous_view({2, 3, 4});
  same_view(exercise::transpose_view(v, 0, 1), base.transpose(0, 1));
  same_view(exercise::transpose_view(v, 0, 2), base.transpose(0, 2));
  same_view(exercise::transpose_view(contiguous_view({3, 5}), 0, 1), counting({3, 5}).t());
}

TEST_CASE("exercise 01: slice_view equals Tensor::slice", "[exercise01]") {
  const Tensor base = counting({3, 8});
  const View v = contiguous_view({3, 8});
  same_view(exercise::slice_view(v, 1, 1, 8, 3), base.slice(1, 1, 8, 3));
  same_view(exercise::slice_view(v, 1, 2, 6, 1), base.slice(1, 2, 6, 1));
  same_view(exercise::slice_view(v, 0, 1, 3, 1), base.slice(0, 1, 3, 1));
  same_view(exercise::slice_view(v, 0, 0, 3, 2), base.slice(0, 0, 3, 2));
}

TEST_CASE("exercise 01: select_view equals Tensor::select", "[exercise01]") {
  const Tensor base = counting({2, 3, 4});
  const View v = contiguous_view({2, 3, 4});
  same_view(exercise::select_view(v, 0, 1), base.select(0, 1));
  same_view(exercise::select_view(v, 1, 2), base.select(1, 2));
  same_view(exercise::select_view(v, 2, 3), base.select(2, 3));
}

TEST_CASE("exercise 01: a chain of views lands on the same elements", "[exercise01]") {
  // base [4, 6] -> .t() [6, 4] -> .slice(0, 1, 6, 2) [3, 4] -> .select(1, 3) [3]
  const Tensor base = counting({4, 6});
  View v = contiguous_view({4, 6});
  v = exercise::transpose_view(v, 0, 1);
  same_view(v, base.t());
  v = exercise::slice_view(v, 0, 1, 6, 2);
  same_view(v, base.t().slice(0, 1, 6, 2));
  v = exercise::select_view(v, 1, 3);
  same_view(v, base.t().slice(0, 1, 6, 2).select(1, 3));
  // a 3-d view with a nonzero offset, transposed again
  const Tensor cube = counting({3, 4, 5});
  View c = exercise::select_view(contiguous_view({3, 4, 5}), 0, 2);
  c = exercise::transpose_view(exercise::slice_view(c, 1, 1, 5, 2), 0, 1);
  same_view(c, cube.select(0, 2).slice(1, 1, 5, 2).transpose(0, 1));
}
