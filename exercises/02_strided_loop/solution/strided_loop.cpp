// Chapter 2 exercise, solved: broadcasting and an elementwise binary kernel over any strides,
// in the style of attic's CPU backend (tensor/cpu/strided.h's odometer, elementwise.cpp's
// map2), without its fast paths (flat loop, rows that vectorize, threads).
#include "strided_loop.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace exercise {

// [.., a] and [.., b] aligned at the right -> [.., max(a, b)] where each pair is equal or has a 1.
attic::Shape broadcast_shape(const attic::Shape& a, const attic::Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  attic::Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      throw std::invalid_argument("broadcast_shape: sizes " + std::to_string(da) + " and " +
                                  std::to_string(db) + " in dim " + std::to_string(i));
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> broadcast_strides(const attic::Tensor& t, const attic::Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 0);
  const int64_t lead = int64_t(shape.size()) - t.dim();
  for (int64_t d = 0; d < t.dim(); ++d)
    strides[size_t(lead + d)] = t.size(d) == 1 ? 0 : t.stride(d);
  return strides;
}

// out[i] = f(a[i], b[i]) over out.shape: an odometer over the index i, with one running
// storage offset per operand (out, a, b) kept equal to Σ_k i[k] strides[k].
void strided_binary(const attic::KTensor& out, const attic::KTensor& a, const attic::KTensor& b,
                    float (*f)(float, float)) {
  const attic::Shape& shape = out.shape;
  for (int64_t s : shape)
    if (s == 0) return;  // no elements
  float* po = out.ptr<float>();
  const float* pa = a.ptr<float>();
  const float* pb = b.ptr<float>();
  const std::array<const std::vector<int64_t>*, 3> strides{&out.strides, &a.strides, &b.strides};
  const int64_t nd = int64_t(shape.size());
  std::vector<int64_t> idx(size_t(nd), 0);
  std::array<int64_t, 3> off{0, 0, 0};
  while (true) {
    po[off[0]] = f(pa[off[1]], pb[off[2]]);
    // step the last dim; a dim that reaches its size goes back to 0 and carries
    int64_t d = nd - 1;
    for (; d >= 0; --d) {
      for (size_t k = 0; k < 3; ++k) off[k] += (*strides[k])[size_t(d)];
      if (++idx[size_t(d)] < shape[size_t(d)]) break;
      for (size_t k = 0; k < 3; ++k) off[k] -= (*strides[k])[size_t(d)] * shape[size_t(d)];
      idx[size_t(d)] = 0;
    }
    if (d < 0) return;  // every dim wrapped (or a 0-d shape): done
  }
}

// Given: the op around the kernel, as ops/helpers.cpp's binary_kernel does it.
attic::Tensor binary(const attic::Tensor& a, const attic::Tensor& b, float (*f)(float, float)) {
  if (a.dtype() != attic::kFloat32 || b.dtype() != attic::kFloat32)
    throw std::invalid_argument("binary: float32 tensors only");
  const attic::Shape shape = broadcast_shape(a.shape(), b.shape());
  attic::Tensor out = attic::empty(shape);
  attic::KTensor ko{out.raw_data(), attic::kFloat32, shape, out.strides()};
  attic::KTensor ka{a.raw_data(), attic::kFloat32, shape, broadcast_strides(a, shape)};
  attic::KTensor kb{b.raw_data(), attic::kFloat32, shape, broadcast_strides(b, shape)};
  strided_binary(ko, ka, kb, f);
  return out;
}

}  // namespace exercise
