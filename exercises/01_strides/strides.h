// Chapter 1 exercise: a view's strides and offsets, worked out by hand.
//
// A view is what attic's TensorImpl holds besides its Storage: a shape, strides and an
// offset into the storage. Element [i0, i1, ...] sits at storage index
//   offset + i0 * strides[0] + i1 * strides[1] + ...
#pragma once

#include <cstdint>
#include <vector>

namespace exercise {

struct View {
  std::vector<int64_t> shape;    // size of each dim
  std::vector<int64_t> strides;  // elements to step in storage per step along each dim
  int64_t offset = 0;            // storage index of element [0, 0, ...]
};

// shape [d0, ..., dn-1] -> the row-major strides of a fresh tensor of that shape:
// strides[n-1] = 1, strides[k] = strides[k+1] * shape[k+1]. A 0-d shape has no strides.
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape);

// index [i0, ..., in-1] -> offset + Σ_k index[k] * strides[k]. Throws std::out_of_range when
// index has the wrong length or some index[k] is outside [0, shape[k]).
int64_t offset_of(const View& v, const std::vector<int64_t>& index);

// The view that Tensor::transpose(d0, d1) makes: dims d0 and d1 swapped (sizes and strides).
View transpose_view(const View& v, int64_t d0, int64_t d1);

// The view that Tensor::slice(dim, start, end, step) makes: indices start, start + step, ...
// below end along dim (0 <= start <= end <= shape[dim], step >= 1).
View slice_view(const View& v, int64_t dim, int64_t start, int64_t end, int64_t step);

// The view that Tensor::select(dim, i) makes: index i along dim, and dim removed.
View select_view(const View& v, int64_t dim, int64_t i);

}  // namespace exercise
