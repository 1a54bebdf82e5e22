// decayed_cumsum: the prefix sum with a decay, the first-order linear recurrence
//
//   y_t = x_t + r_t ⊙ y_{t−1},  y_0 = x_0                (reverse = false)
//   y_t = x_t + r_{t+1} ⊙ y_{t+1},  y_{n−1} = x_{n−1}     (reverse = true)
//
// along one dim; r = 1 is cumsum. Causal linear attention runs its RNN state through it
// (nn/attention/linear_attention.cpp): the state kept under a shift that grows with t is
// rescaled by r_t = exp(m_{t−1} − m_t) at each step, in time and memory linear in T.
//
// Its derivative. The map x -> y is linear; its transpose is the same recurrence run the
// other way with the same r: with g = ∂L/∂y,
//   forward:  dx = decayed_cumsum(g, r, reverse = true),   dr_t = dx_t ⊙ y_{t−1}  (t ≥ 1)
//   reverse:  dx = decayed_cumsum(g, r, reverse = false),  dr_t = dx_{t−1} ⊙ y_t  (t ≥ 1)
// and dr_0 = 0 (r_0 multiplies nothing), summed down to r's shape where r was broadcast.
// All of it is public ops, so the backward is differentiable again.
#include "ops/helpers.h"

namespace attic {

namespace {

struct DecayedCumsumBackward final : autograd::Node {
  Tensor x, r, y;  // y: the output, detached (a recorded backward recomputes it from x, r)
  int64_t dim = 0;
  bool reverse = false;
  const char* name() const override { return "DecayedCumsumBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const Tensor dx = decayed_cumsum(g, r, dim, !reverse);
    Tensor dr;
    if (needs_grad(1)) {
      const Tensor yy = autograd::GradMode::is_enabled() ? decayed_cumsum(x, r, dim, reverse) : y;
      const int64_t n = x.size(dim);
      Shape first = x.shape();
      first[size_t(dim)] = 1;
      Tensor full = zeros(first, TensorOptions(x.dtype()).device(x.device()));
      if (n > 1) {
        const Tensor terms = reverse ? dx.narrow(dim, 0, n - 1) * yy.narrow(dim, 1, n - 1)
                                     : dx.narrow(dim, 1, n - 1) * yy.narrow(dim, 0, n - 1);
        full = cat({full, terms}, dim);  // [dr_0 = 0, dr_1, ..., dr_{n−1}]
      }
      dr = sum_to(full, r.shape());
    }
    return {dx, dr};
  }
};

}  // namespace

// x [*], r broadcastable to x's shape, dim -> y [*] (x's shape)
Tensor decayed_cumsum(const Tensor& x, const Tensor& r, int64_t dim, bool reverse) {
  const char* op = "decayed_cumsum";
  detail::check_defined(op, x);
  detail::check_defined(op, r);
  detail::check_floating(op, x);
  detail::check_same_dtype(op, x, r);
  ATTIC_CHECK(x.dim() > 0, op, ": x needs at least one dim, got a 0-d tensor");
  dim = wrap_dim(dim, x.dim(), op);
  bool fits = r.dim() <= x.dim();
  for (int64_t i = 1; fits && i <= r.dim(); ++i) fits = r.size(-i) == 1 || r.size(-i) == x.size(-i);
  ATTIC_CHECK(fits, op, ": r of shape ", str(r.shape()), " does not broadcast to x's shape ",
              str(x.shape()));
  Tensor out = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  detail::backend_of(op, {x, r}).decayed_cumsum(detail::ktensor(out), detail::ktensor(x),
                                               detail::ktensor_as(r, x.shape()), dim, reverse);
  if (autograd::needs_grad({x, r})) {
    auto node = std::make_shared<DecayedCumsumBackward>();
    node->x = x;
    node->r = r;
    node->y = out.detach();
    node->dim = dim;
    node->reverse = reverse;
    autograd::connect(out, node, {x, r});
  }
  return out;
}

}  // namespace attic
