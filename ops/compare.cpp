// Comparisons gt, lt, ge, le, eq, ne: bool tensors, true where the relation holds, as in
// PyTorch. In arithmetic a bool tensor takes the other operand's dtype, so x * gt(x, 0.0)
// keeps x's dtype. A comparison is flat wherever it is differentiable, so the result never
// requires grad.
#include <cmath>

#include "ops/helpers.h"

namespace attic {

using detail::binary_kernel;

namespace {

// a [*] against the scalar b -> [*] bool. b becomes a 0-d tensor of a's dtype; for an int64
// a that would truncate a fractional b (x > 0.5 would turn into x > 0) or overflow a huge
// one, and for a bool a it would turn every nonzero b into true (mask == 2 into
// mask == true), so then the comparison runs on a float64 copy of a.
Tensor compare_scalar(const char* name, BinaryOp op, const Tensor& a, double b) {
  detail::check_defined(name, a);
  const bool exact =
      is_floating(a.dtype()) ||
      (a.dtype() == kBool ? (b == 0 || b == 1) : (std::floor(b) == b && std::abs(b) < 0x1p63));
  if (exact) return binary_kernel(name, op, a, detail::scalar_like(a, b));
  Tensor a64 = a.to(kFloat64);
  return binary_kernel(name, op, a64, detail::scalar_like(a64, b));
}

}  // namespace

// a [*], b broadcastable with a -> broadcast shape, bool: [a > b]
Tensor gt(const Tensor& a, const Tensor& b) { return binary_kernel("gt", BinaryOp::Gt, a, b); }
// a [*], b broadcastable with a -> broadcast shape, bool: [a < b]
Tensor lt(const Tensor& a, const Tensor& b) { return binary_kernel("lt", BinaryOp::Lt, a, b); }
// a [*], b broadcastable with a -> broadcast shape, bool: [a >= b]
Tensor ge(const Tensor& a, const Tensor& b) { return binary_kernel("ge", BinaryOp::Ge, a, b); }
// a [*], b broadcastable with a -> broadcast shape, bool: [a <= b]
Tensor le(const Tensor& a, const Tensor& b) { return binary_kernel("le", BinaryOp::Le, a, b); }
// a [*], b broadcastable with a -> broadcast shape, bool: [a == b]
Tensor eq(const Tensor& a, const Tensor& b) { return binary_kernel("eq", BinaryOp::Eq, a, b); }
// a [*], b broadcastable with a -> broadcast shape, bool: [a != b]
Tensor ne(const Tensor& a, const Tensor& b) { return binary_kernel("ne", BinaryOp::Ne, a, b); }

// a [*] -> [*] bool: [a > b]
Tensor gt(const Tensor& a, double b) { return compare_scalar("gt", BinaryOp::Gt, a, b); }
// a [*] -> [*] bool: [a < b]
Tensor lt(const Tensor& a, double b) { return compare_scalar("lt", BinaryOp::Lt, a, b); }
// a [*] -> [*] bool: [a >= b]
Tensor ge(const Tensor& a, double b) { return compare_scalar("ge", BinaryOp::Ge, a, b); }
// a [*] -> [*] bool: [a <= b]
Tensor le(const Tensor& a, double b) { return compare_scalar("le", BinaryOp::Le, a, b); }
// a [*] -> [*] bool: [a == b]
Tensor eq(const Tensor& a, double b) { return compare_scalar("eq", BinaryOp::Eq, a, b); }
// a [*] -> [*] bool: [a != b]
Tensor ne(const Tensor& a, double b) { return compare_scalar("ne", BinaryOp::Ne, a, b); }

}  // namespace attic
