// prefix_softmax_scan: ELiTA's attention as prefix sums (acosharma/elita-transformer). Per
// line (b, h), row i is the softmax over the logits {r_i + s_j : j ≤ i} ∪ {d_i} of the
// values {v_j} ∪ {v_i}:
//
//   y_i = (Σ_{j≤i} e^{r_i + s_j} v_j + e^{d_i} v_i) / (Σ_{j≤i} e^{r_i + s_j} + e^{d_i})
//
// e^{r_i} factors out of the sum over j, so the rows share the prefix sums S_i = Σ_{j≤i}
// e^{s_j} v_j and Z_i = Σ_{j≤i} e^{s_j}, in time linear in N. They are kept under the
// running maximum m_i of s_0..s_i, as RWKV-4's WKV kernel keeps its state (BlinkDL/RWKV-LM,
// wkv_cuda.cu):
//   S_i = e^{m_{i−1} − m_i} S_{i−1} + e^{s_i − m_i} v_i   (decayed_cumsum, Z_i likewise)
// so S_i = Σ_{j≤i} e^{s_j − m_i} v_j and Z_i ≥ 1 (its largest term is e^0). The row and the
// diagonal then share one shift M_i = max(r_i + m_i, d_i):
//   y_i = (α_i S_i + β_i v_i) / den_i,  α_i = e^{r_i + m_i − M_i},  β_i = e^{d_i − M_i},
//   den_i = α_i Z_i + β_i
// Both exponents are ≤ 0 and one of them is 0, so nothing overflows and den_i ≥ 1. m is causal
// (a later key never shifts an earlier row) and m, M cancel in the value, so they carry no
// gradient.
//
// Its derivative, with g_i = ∂L/∂y_i, a_i = α_i / den_i and b_i = β_i / den_i (so that key j
// has probability p_ij = e^{s_j − m_i} a_i in row i, and the diagonal b_i): a logit of
// probability p and value u in row i gets p (g_i·u − g_i·y_i). Summed over the rows i ≥ j that
// see key j, that is a prefix sum run backwards with the same decays:
//   G_j = a_j g_j + e^{m_j − m_{j+1}} G_{j+1},   c_j = a_j (g_j·y_j) + e^{m_j − m_{j+1}} c_{j+1}
//   ds_j = e^{s_j − m_j} (v_j·G_j − c_j),        dv_j = e^{s_j − m_j} G_j + b_j g_j
//   dd_i = b_i (g_i·v_i − g_i·y_i),              dr_i = −dd_i
// (dr = −dd: adding one constant to r_i and d_i leaves row i unchanged.)
//
// prefix_softmax_scan_naive is the forward as public ops, about twenty passes over memory;
// prefix_softmax_scan runs one kernel each way where the backend has one (the CPU's:
// tensor/cpu/prefix_softmax.cpp). Its backward is then the kernel too, unless a graph of the
// backward is recorded (create_graph), where it is the formulas above in public ops, and
// differentiable again.
#include "autograd/grad_mode.h"
#include "ops/helpers.h"

namespace attic {

namespace {

// s, d, r [B, H, N], v [B, H, N, A]: one floating dtype, one device, shapes that fit
void check_scan(const Tensor& s, const Tensor& d, const Tensor& r, const Tensor& v) {
  const char* op = "prefix_softmax_scan";
  for (const Tensor* t : {&s, &d, &r, &v}) {
    detail::check_defined(op, *t);
    detail::check_floating(op, *t);
    detail::check_same_dtype(op, s, *t);
  }
  ATTIC_CHECK(s.dim() == 3 && d.shape() == s.shape() && r.shape() == s.shape() && v.dim() == 4 &&
                  v.size(0) == s.size(0) && v.size(1) == s.size(1) && v.size(2) == s.size(2),
              op, ": s, d, r must be [B, H, N] and v [B, H, N, A], got ", str(s.shape()), ", ",
              str(d.shape()), ", ", str(r.shape()), " and ", str(v.shape()));
}

// m [B, H, N] -> e^{m_{i−1} − m_i} [B, H, N] (1 at i = 0, where there is nothing to decay)
Tensor decays(const Tensor& m) {
  const int64_t N = m.size(2);
  const Tensor m_prev = N > 1 ? cat({m.narrow(2, 0, 1), m.narrow(2, 0, N - 1)}, 2) : m;
  return exp(m_prev - m);
}

// The forward's pieces as public ops, m given: w = e^{s − m}, a, b [B, H, N] and
// y [B, H, N, A] (see the file comment).
struct Pieces {
  Tensor decay, w, a, b, y;
};
Pieces pieces(const Tensor& s, const Tensor& d, const Tensor& r, const Tensor& v, const Tensor& m) {
  Pieces p;
  p.decay = decays(m);
  p.w = exp(s - m);
  const Tensor S = decayed_cumsum(p.w.unsqueeze(-1) * v, p.decay.unsqueeze(-1), 2);
  const Tensor Z = decayed_cumsum(p.w, p.decay, 2);
  const Tensor rm = r + m;
  const Tensor M = maximum(rm.detach(), d.detach());
  const Tensor alpha = exp(rm - M), beta = exp(d - M);
  const Tensor den = alpha * Z + beta;
  p.a = alpha / den;
  p.b = beta / den;
  p.y = p.a.unsqueeze(-1) * S + p.b.unsqueeze(-1) * v;
  return p;
}

struct PrefixSoftmaxScanBackward final : autograd::Node {
  Tensor s, d, r, v;  // the inputs
  Tensor y, m, a, b;  // the forward's output and statistics, detached
  const char* name() const override { return "PrefixSoftmaxScanBackward"; }
  // g [B, H, N, A] -> ds, dd, dr [B, H, N], dv [B, H, N, A]
  std::vector<Tensor> backward(const Tensor& g) override {
    std::vector<Tensor> grads(4);
    if (autograd::GradMode::is_enabled()) {  // create_graph: public ops, differentiable
      const Pieces p = pieces(s, d, r, v, m);
      const Tensor gy = sum(g * p.y, {3}), gv = sum(g * v, {3});
      const Tensor G = decayed_cumsum(p.a.unsqueeze(-1) * g, p.decay.unsqueeze(-1), 2, true);
      const Tensor c = decayed_cumsum(p.a * gy, p.decay, 2, true);
      grads[0] = p.w * (sum(v * G, {3}) - c);
      grads[1] = p.b * (gv - gy);
      grads[2] = neg(grads[1]);
      grads[3] = p.w.unsqueeze(-1) * G + p.b.unsqueeze(-1) * g;
    } else {
      const TensorOptions opts = TensorOptions(g.dtype()).device(g.device());
      for (int i = 0; i < 3; ++i) grads[size_t(i)] = empty(s.shape(), opts);
      grads[3] = empty(v.shape(), opts);
      const Tensor gu = g.stride(3) == 1 ? g : g.contiguous();
      backend_for(g.device())
          .prefix_softmax_backward(detail::ktensor(grads[0]), detail::ktensor(grads[1]),
                                   detail::ktensor(grads[2]), detail::ktensor(grads[3]),
                                   detail::ktensor(gu), detail::ktensor(s), detail::ktensor(v),
                                   detail::ktensor(y), detail::ktensor(m), detail::ktensor(a),
                                   detail::ktensor(b));
    }
    for (size_t i = 0; i < grads.size(); ++i)
      if (!needs_grad(i)) grads[i] = Tensor();
    return grads;
  }
};

}  // namespace

// s, d, r [B, H, N], v [B, H, N, A] -> y [B, H, N, A], as public ops
Tensor prefix_softmax_scan_naive(const Tensor& s, const Tensor& d, const Tensor& r,
                                 const Tensor& v) {
  check_scan(s, d, r, v);
  return pieces(s, d, r, v, running_max(s, 2)).y;
}

// s, d, r [B, H, N], v [B, H, N, A] -> y [B, H, N, A], one scan where the backend has it
Tensor prefix_softmax_scan(const Tensor& s, const Tensor& d, const Tensor& r, const Tensor& v) {
  check_scan(s, d, r, v);
  Backend& be = detail::backend_of("prefix_softmax_scan", {s, d, r, v});
  if (!be.fused_prefix_softmax()) return prefix_softmax_scan_naive(s, d, r, v);
  const Tensor vu = v.stride(3) == 1 ? v : v.contiguous();
  const TensorOptions opts = TensorOptions(v.dtype()).device(v.device());
  Tensor y = empty(v.shape(), opts);
  const Tensor m = empty(s.shape(), opts), a = empty(s.shape(), opts), b = empty(s.shape(), opts);
  be.prefix_softmax(detail::ktensor(y), detail::ktensor(m), detail::ktensor(a),
                    detail::ktensor(b), detail::ktensor(s), detail::ktensor(d),
                    detail::ktensor(r), detail::ktensor(vu));
  if (autograd::needs_grad({s, d, r, v})) {
    auto node = std::make_shared<PrefixSoftmaxScanBackward>();
    node->s = s;
    node->d = d;
    node->r = r;
    node->v = vu;
    node->y = y.detach();
    node->m = m;
    node->a = a;
    node->b = b;
    autograd::connect(y, node, {s, d, r, v});
  }
  return y;
}

}  // namespace attic
