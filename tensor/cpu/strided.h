// The general strided loop every CPU kernel is built on.
//
// strided_rows(shape, {strides of operand 0, 1, ...}, row) visits all of `shape` in
// row-major order, one innermost row at a time: row(offsets, n, inner_strides) gets the
// element offset of each operand at the row's start, the row length n, and each operand's
// stride along the row. Kernels put their arithmetic in the row body, where a contiguous
// row (inner stride 1) vectorizes.
#pragma once

#include "tensor/cpu/cpu_isa.h"

#include <array>
#include <cstdint>
#include <vector>

#include "tensor/backend.h"

namespace attic::cpu::ATTIC_CPU_ISA {

// strided_rows over the innermost rows first_row .. last_row − 1 only (rows counted in
// row-major order over the outer dims), so that disjoint row ranges can run on different
// threads.
template <size_t N, class Row>
void strided_rows_range(const std::vector<int64_t>& shape,
                        const std::array<const std::vector<int64_t>*, N>& strides, int64_t first_row,
                        int64_t last_row, Row&& row) {
  std::array<int64_t, N> off{}, inner{};
  const int64_t nd = int64_t(shape.size());
  if (first_row >= last_row) return;  // also every empty shape: it has no rows
  if (nd == 0) {
    row(off, int64_t(1), inner);
    return;
  }
  for (size_t k = 0; k < N; ++k) inner[k] = (*strides[k])[size_t(nd - 1)];
  const int64_t n = shape[size_t(nd - 1)];
  if (n == 0) return;
  // the odometer's position at first_row: its index along each outer dim
  std::vector<int64_t> idx(size_t(nd), 0);
  for (int64_t d = nd - 2, r = first_row; d >= 0; --d) {
    idx[size_t(d)] = r % shape[size_t(d)];
    r /= shape[size_t(d)];
    for (size_t k = 0; k < N; ++k) off[k] += idx[size_t(d)] * (*strides[k])[size_t(d)];
  }
  for (int64_t rows = last_row - first_row; rows > 0; --rows) {
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

// The number of innermost rows of shape (1 for a 0-d shape, 0 when it is empty).
inline int64_t row_count(const std::vector<int64_t>& shape) {
  if (shape.empty()) return 1;
  int64_t rows = 1;
  for (size_t d = 0; d + 1 < shape.size(); ++d) rows *= shape[d];
  return shape.back() == 0 ? 0 : rows;
}

template <size_t N, class Row>
void strided_rows(const std::vector<int64_t>& shape,
                  const std::array<const std::vector<int64_t>*, N>& strides, Row&& row) {
  strided_rows_range<N>(shape, strides, 0, row_count(shape), row);
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

}  // namespace attic::cpu::ATTIC_CPU_ISA
