// where and masked_fill: pick each element from one of two tensors by a bool condition.
// As in PyTorch the condition must be bool: a float 0/1 mask is refused rather than read as
// nonzero = true, because PyTorch's attention reads a float mask as an additive bias, and
// the two readings of one tensor must not be confused.
#include <algorithm>

#include "ops/helpers.h"

namespace attic {

using detail::scalar_like;

namespace {

// out = cond ? a : b: the gradient goes to whichever input was picked,
//   da = sum_to(cond ? g : 0, a's shape),  db = sum_to(cond ? 0 : g, b's shape)
struct WhereBackward final : autograd::Node {
  Tensor cond;  // detached: cond gets no gradient
  Shape a_shape, b_shape;
  const char* name() const override { return "WhereBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor zero = scalar_like(g, 0.0);
    return {needs_grad(0) ? sum_to(where(cond, g, zero), a_shape) : Tensor(),
            needs_grad(1) ? sum_to(where(cond, zero, g), b_shape) : Tensor()};
  }
};

// The broadcast of three shapes: aligned at the right, each size equal to the others or 1.
Shape broadcast3(const Shape& c, const Shape& a, const Shape& b) {
  const size_t n = std::max({c.size(), a.size(), b.size()});
  Shape out(n, 1);
  bool ok = true;
  for (const Shape* s : {&c, &a, &b}) {
    for (size_t i = 0; i < s->size(); ++i) {
      const int64_t d = (*s)[i];
      int64_t& o = out[n - s->size() + i];
      if (o == 1) o = d;
      else ok = ok && (d == o || d == 1);
    }
  }
  ATTIC_CHECK(ok, "where: shapes of cond ", str(c), ", a ", str(a), " and b ", str(b),
              " cannot broadcast");
  return out;
}

void check_bool(const char* op, const char* what, const Tensor& t) {
  ATTIC_CHECK(t.dtype() == kBool, op, ": ", what, " must be bool, got ", dtype_name(t.dtype()),
              "; make it with a comparison (ne(m, 0.0)) or .to(kBool)");
}

}  // namespace

// cond bool, a, b broadcastable together -> broadcast shape, a's dtype:
//   out = a where cond, else b. a and b share one dtype (a bool one takes the other's).
Tensor where(const Tensor& cond, const Tensor& a_in, const Tensor& b_in) {
  detail::check_defined("where", cond);
  detail::check_defined("where", a_in);
  detail::check_defined("where", b_in);
  check_bool("where", "the condition", cond);
  const Tensor a = detail::promote_bool(a_in, b_in), b = detail::promote_bool(b_in, a_in);
  detail::check_same_dtype("where", a, b);
  Backend& be = detail::backend_of("where", {cond, a, b});
  const Shape shape = broadcast3(cond.shape(), a.shape(), b.shape());
  Tensor out = empty(shape, TensorOptions(a.dtype()).device(a.device()));
  be.where(detail::ktensor(out), detail::ktensor_as(cond, shape), detail::ktensor_as(a, shape),
           detail::ktensor_as(b, shape));
  if (autograd::needs_grad({a, b})) {
    auto node = std::make_shared<WhereBackward>();
    node->cond = cond.detach();
    node->a_shape = a.shape();
    node->b_shape = b.shape();
    autograd::connect(out, node, {a, b});
  }
  return out;
}

// x [*], mask bool broadcastable to x's shape (never beyond it) -> [*]:
//   out = value where mask, else x. The gradient reaches x where mask is false.
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value) {
  detail::check_defined("masked_fill", x);
  detail::check_defined("masked_fill", mask);
  check_bool("masked_fill", "the mask", mask);
  bool fits = mask.dim() <= x.dim();
  for (int64_t i = 1; fits && i <= mask.dim(); ++i)
    fits = mask.size(-i) == 1 || mask.size(-i) == x.size(-i);
  ATTIC_CHECK(fits, "masked_fill: mask of shape ", str(mask.shape()),
              " does not broadcast to x's shape ", str(x.shape()));
  return where(mask, scalar_like(x, value), x);
}

}  // namespace attic
