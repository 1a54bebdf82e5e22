// Small pieces every op file uses: the kernel view of a tensor, broadcasting, checks.
// Internal to ops/; not part of the public API.
#pragma once

#include <optional>
#include <string>

#include "autograd/node.h"
#include "tensor/backend.h"
#include "ops/ops.h"

namespace attic::detail {

// The kernel's view of t: raw pointer at element [0...], shape, strides.
KTensor ktensor(const Tensor& t);
// Same, with t's strides stretched to `shape` (broadcast dims get stride 0).
KTensor ktensor_as(const Tensor& t, const Shape& shape);

// NumPy broadcasting: align shapes at the right; each pair of sizes must match or be 1.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);

// The backend that runs an op on these tensors (they must share one device, and none may be
// bfloat16 or float16: see check_computes).
Backend& backend_of(const char* op, std::initializer_list<Tensor> tensors);
// The same for an op that only moves or converts elements (copy_, cat), which takes every
// dtype, bfloat16 and float16 too.
Backend& backend_of_moves(const char* op, std::initializer_list<Tensor> tensors);

// Checks, each throwing an Error that names op.
void check_defined(const char* op, const Tensor& t);
void check_same_dtype(const char* op, const Tensor& a, const Tensor& b);
void check_floating(const char* op, const Tensor& t);  // float32 or float64
// Refuses the storage-only dtypes, bfloat16 and float16 (tensor/dtype.h).
void check_computes(const char* op, const Tensor& t);
void check_index_dtype(const char* op, const Tensor& index);

// The first value of index (int64, any shape, any device) outside [0, size), if any. A
// contiguous CPU index is read where it lies; any other is copied to the host first.
std::optional<int64_t> first_out_of_range(const Tensor& index, int64_t size);

// index_select and index_add (ops/index_select.cpp) for an index whose values the caller has
// checked already: embedding, whose message speaks of token ids, and the two backwards,
// which reuse the index their forward checked. dim is wrapped.
Tensor index_select_prechecked(const Tensor& x, int64_t dim, const Tensor& index);
Tensor index_add_prechecked(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);

// A 0-d tensor of value with t's dtype and device (for `x + 2.0`).
Tensor scalar_like(const Tensor& t, double value);

// PyTorch's type promotion, for bool (attic mixes no other dtypes): beside a tensor of
// another dtype a bool tensor takes that dtype, so mask * x has x's dtype; beside a scalar
// (a double, Python's float) it becomes float32, the default dtype, so mask * 0.5 is
// float32. Any other t comes back as it is.
Tensor promote_bool(const Tensor& t, const Tensor& other);
Tensor promote_bool_scalar(const Tensor& t);

// True for Gt, Lt, Ge, Le, Eq, Ne: the ops whose kernel writes bool.
bool is_comparison(BinaryOp op);

// out = op(in) elementwise through the backend's unary kernel (no autograd).
Tensor unary_kernel(const char* name, UnaryOp op, const Tensor& x, double p0 = 0, double p1 = 0);
// out = a op b with broadcasting through the backend's binary kernel (no autograd). A bool
// operand beside a non-bool one is promoted first (promote_bool); out is bool for a
// comparison, else the operands' dtype.
Tensor binary_kernel(const char* name, BinaryOp op, const Tensor& a, const Tensor& b);

// Normalizes a list of dims (negatives wrapped; duplicates rejected); empty means all.
std::vector<int64_t> reduce_dims(const char* op, const std::vector<int64_t>& dims, int64_t ndim);

}  // namespace attic::detail
