// The general strided loop every CPU kernel is built on.
//
// strided_rows(shape, {strides of operand 0, 1, ...}, row) visits all of `shape` in
// row-major order, one innermost row at a time: row(offsets, n, inner_strides) gets the
// element offset of each operand at the row's start, the row length n, and each operand's
// stride along the row. Kernels put their arithmetic in the row body, where a contiguous
// row (inner stride 1) vectorizes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tensor/backend.h"

namespace attic::cpu {

template <size_t N, class Row>
void strided_rows(const std::vector<int64_t>& shape,
                  const std::array<const std::vector<int64_t>*, N>& strides, Row&& row) {
  std::array<int64_t, N> off{}, inner{};
  const int64_t nd = int64_t(shape.size());
  int64_t numel = 1;
  for (int64_t s : shape) numel *= s;
  if (numel == 0) return;
  if (nd == 0) {
    row(off, int64_t(1), inner);
    return;
  }
  for (size_t k = 0; k < N; ++k) inner[k] = (*strides[k])[size_t(nd - 1)];
  const int64_t n = shape[size_t(nd - 1)];
  std::vector<int64_t> idx(size_t(nd), 0);
  for (int64_t rows = numel / n; rows > 0; --rows) {
    row(off, n, inner);
    // odometer increment over the outer dims
    for (int64_t d = nd - 2; d >= 0; --d) {
      for (size_t k = 0; k < N; ++k) off[k] += (*strides[k])[size_t(d)];
      if (++idx[size_t(d)] < shape[size_t(d)]) break;
      for (size_t k = 0; k < N; ++k) off[k] -= (*strides[k])[size_t(d)] * shape[size_t(d)];
      idx[size_t(d)] = 0;
    }
  }
}

// True when every operand is contiguous over `shape`: then one flat loop does.
inline bool all_contiguous(std::initializer_list<const KTensor*> ts) {
  for (const KTensor* t : ts)
    if (!t->is_contiguous()) return false;
  return true;
}

// t with dim removed and its data moved to index i along it.
inline KTensor select_dim(const KTensor& t, int64_t dim, int64_t i) {
  KTensor s;
  s.dtype = t.dtype;
  s.data = static_cast<char*>(t.data) + i * t.strides[size_t(dim)] * int64_t(dtype_size(t.dtype));
  s.shape = t.shape;
  s.strides = t.strides;
  s.shape.erase(s.shape.begin() + dim);
  s.strides.erase(s.strides.begin() + dim);
  return s;
}

}  // namespace attic::cpu
