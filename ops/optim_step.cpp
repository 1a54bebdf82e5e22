// The optimizers' fused inner loops: one Adam / AdamW step, and the squared norm that
// clip_grad_norm_ needs. Not differentiable; they read gradients and write parameters.
#include "ops/helpers.h"

namespace attic {

// p, g, m, v: one shape, dtype and device; p, m, v contiguous (g is made so).
// The update itself is written out in tensor/cpu/adam.cpp and optim/adam.cpp.
void adam_step_(const Tensor& p, const Tensor& g, const Tensor& m, const Tensor& v,
                const AdamStep& step) {
  const char* op = "adam_step_";
  for (const Tensor* t : {&p, &g, &m, &v}) detail::check_defined(op, *t);
  detail::check_floating(op, p);
  ATTIC_CHECK(!(p.requires_grad() && autograd::GradMode::is_enabled()), op,
              ": in-place write to a tensor that requires grad; do it inside NoGradGuard");
  for (const Tensor* t : {&g, &m, &v}) {
    ATTIC_CHECK(t->shape() == p.shape(), op, ": shapes differ, param ", str(p.shape()), " and ",
                str(t->shape()));
    detail::check_same_dtype(op, p, *t);
  }
  ATTIC_CHECK(p.is_contiguous() && m.is_contiguous() && v.is_contiguous(), op,
              ": param and state must be contiguous");
  const Tensor gc = g.contiguous();
  ++p.impl()->storage->version;
  detail::backend_of(op, {p, g, m, v})
      .adam_step(detail::ktensor(p), detail::ktensor(gc), detail::ktensor(m), detail::ktensor(v),
                 step);
}

// x [*] -> Σ x², summed in double.
double sum_squares(const Tensor& x) {
  detail::check_defined("sum_squares", x);
  detail::check_floating("sum_squares", x);
  return detail::backend_of("sum_squares", {x}).sum_squares(detail::ktensor(x));
}

}  // namespace attic
