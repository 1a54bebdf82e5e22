// Chapter 2 exercise: an elementwise binary kernel over any strides, with broadcasting,
// written the way attic's CPU backend writes its own (tensor/cpu/elementwise.cpp, map2).
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/backend.h"
#include "tensor/tensor.h"

namespace exercise {

// NumPy broadcasting: shapes a and b aligned at the right (the shorter padded with 1s on the
// left); in each dim the sizes must be equal or one of them 1, and the result takes the
// larger. Throws std::invalid_argument when two sizes differ and neither is 1.
//   [2, 3] and [3] -> [2, 3];  [4, 1, 5] and [3, 1] -> [4, 3, 5]
attic::Shape broadcast_shape(const attic::Shape& a, const attic::Shape& b);

// t's strides as seen from a tensor of shape `shape` that t broadcasts to: one stride per
// dim of shape, 0 on the leading dims t lacks and on the dims where t has size 1, t's own
// stride elsewhere. A stride of 0 reads the same element again at every step.
//   t [3, 1] with strides [1, 1], shape [2, 3, 4] -> [0, 1, 0]
std::vector<int64_t> broadcast_strides(const attic::Tensor& t, const attic::Shape& shape);

// out[i] = f(a[i], b[i]) for every index i of out.shape, over float32 data:
//   out.data[Σ_k i[k] out.strides[k]] = f(a.data[Σ_k i[k] a.strides[k]],
//                                          b.data[Σ_k i[k] b.strides[k]])
// a, b and out share the same shape (a and b already have broadcast strides); any strides
// (transposed, sliced, 0 for broadcast). A 0-d shape has one element; a shape with a 0 in it
// has none.
void strided_binary(const attic::KTensor& out, const attic::KTensor& a, const attic::KTensor& b,
                    float (*f)(float, float));

// out = f(a, b) with broadcasting, for float32 tensors: the shape from broadcast_shape, a fresh
// contiguous output, and strided_binary over the three kernel views.
attic::Tensor binary(const attic::Tensor& a, const attic::Tensor& b, float (*f)(float, float));

}  // namespace exercise
