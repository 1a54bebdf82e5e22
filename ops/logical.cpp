// logical_not, logical_and, logical_or, logical_xor: PyTorch's truth-value ops. Any dtype
// goes in, read as nonzero = true; a bool tensor comes out. They are built on the
// comparisons (x != 0) and bool arithmetic (+ is OR, * is AND), so they need no kernel and
// have no gradient.
#include "ops/helpers.h"

namespace attic {

namespace {

// x [*] -> [*] bool: x != 0 (a bool x as it is)
Tensor truth(const char* op, const Tensor& x) {
  detail::check_defined(op, x);
  return x.dtype() == kBool ? x : ne(x, 0.0);
}

}  // namespace

// x [*] -> [*] bool: NOT x
Tensor logical_not(const Tensor& x) { return eq(truth("logical_not", x), 0.0); }

// a [*], b broadcastable with a -> broadcast shape, bool: a AND b
Tensor logical_and(const Tensor& a, const Tensor& b) {
  return detail::binary_kernel("logical_and", BinaryOp::Mul, truth("logical_and", a),
                               truth("logical_and", b));
}

// a [*], b broadcastable with a -> broadcast shape, bool: a OR b
Tensor logical_or(const Tensor& a, const Tensor& b) {
  return detail::binary_kernel("logical_or", BinaryOp::Add, truth("logical_or", a),
                               truth("logical_or", b));
}

// a [*], b broadcastable with a -> broadcast shape, bool: a XOR b, which is a != b on bools
Tensor logical_xor(const Tensor& a, const Tensor& b) {
  return detail::binary_kernel("logical_xor", BinaryOp::Ne, truth("logical_xor", a),
                               truth("logical_xor", b));
}

}  // namespace attic
