// routed_sum: route attention's sum over sources (Vadimbuildercxx/reflex_attention,
// model.py, attention_type = "route"), every head its own weight for each source:
//
//   y[:, h] = Σ_l w[l·NH + h] · x_l[:, h]            x_l, y [B, NH, T, hs], w [L·NH]
//
// Its derivative, with g = ∂L/∂y:
//   ∂L/∂x_l[:, h] = w[l·NH + h] · g[:, h]          ∂L/∂w[l·NH + h] = Σ_{b, t, i} g · x_l  (over head h)
//
// routed_sum_naive is the same sum as multiplies and adds, as the fork writes it; routed_sum
// runs one kernel each way where the backend has one (the CPU's: tensor/cpu/routed_sum.cpp),
// else routed_sum_naive. Its backward is then the kernel too, unless a graph of the backward is
// recorded (create_graph), where it is the public ops above and differentiable again.
//
// routed_sum_packed is the same sum for route attention's keys and values at once, read from
// and written to the packed [B, T, 3C] and [B, T, 2C] the projections make, so that the
// attention reads its q, k, v in place (scaled_dot_product_attention_packed) and the backward
// writes each projection's gradient whole: no head split copied, no zero-filled column block
// per source to add up.
#include "autograd/grad_mode.h"
#include "ops/helpers.h"

namespace attic {

namespace {

// w [L·NH] -> its entries for source l as [1, NH, 1, 1], to broadcast over [B, NH, T, hs]
Tensor weights_of(const Tensor& w, int64_t l, int64_t n_head) {
  return w.narrow(0, l * n_head, n_head).view({1, n_head, 1, 1});
}

// router [L·NH], parts L x [B, NH, T, hs]: one dtype, one device, one shape
void check_routed_sum(const Tensor& router, const std::vector<Tensor>& parts) {
  const char* op = "routed_sum";
  detail::check_defined(op, router);
  detail::check_floating(op, router);
  ATTIC_CHECK(!parts.empty(), op, ": expects at least one source");
  const Tensor& first = parts[0];
  for (size_t l = 0; l < parts.size(); ++l) {
    detail::check_defined(op, parts[l]);
    ATTIC_CHECK(parts[l].dim() == 4, op, ": source ", l, " has shape ", str(parts[l].shape()),
                "; sources are [B, NH, T, hs]");
    ATTIC_CHECK(parts[l].shape() == first.shape(), op, ": source ", l, " has shape ",
                str(parts[l].shape()), " but source 0 has ", str(first.shape()));
    detail::check_same_dtype(op, router, parts[l]);
    ATTIC_CHECK(parts[l].device() == router.device(), op, ": source ", l, " is on ",
                device_name(parts[l].device()), " but the router is on ",
                device_name(router.device()));
  }
  const auto L = int64_t(parts.size());
  ATTIC_CHECK(router.dim() == 1 && router.size(0) == L * first.size(1), op, ": router has shape ",
              str(router.shape()), "; ", L, " sources of ", first.size(1), " heads need [",
              L * first.size(1), "]");
}

struct RoutedSumBackward final : autograd::Node {
  Tensor router;
  std::vector<Tensor> parts;
  const char* name() const override { return "RoutedSumBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const auto L = int64_t(parts.size());
    const int64_t n_head = g.size(1);
    std::vector<Tensor> grads(size_t(L + 1));
    if (autograd::GradMode::is_enabled()) {  // create_graph: public ops, differentiable
      std::vector<Tensor> dw;
      for (int64_t l = 0; l < L; ++l) {
        if (needs_grad(size_t(l + 1))) grads[size_t(l + 1)] = g * weights_of(router, l, n_head);
        if (needs_grad(0)) dw.push_back(sum(g * parts[size_t(l)], {0, 2, 3}));
      }
      if (needs_grad(0)) grads[0] = cat(dw, 0);
      return grads;
    }
    const TensorOptions opts = TensorOptions(g.dtype()).device(g.device());
    grads[0] = empty(router.shape(), opts);
    std::vector<KTensor> dsrc, src;
    for (int64_t l = 0; l < L; ++l) {
      grads[size_t(l + 1)] = empty(g.shape(), opts);
      dsrc.push_back(detail::ktensor(grads[size_t(l + 1)]));
      src.push_back(detail::ktensor(parts[size_t(l)]));
    }
    backend_for(g.device())
        .routed_sum_backward(dsrc, detail::ktensor(grads[0]), detail::ktensor(g),
                             detail::ktensor(router), src);
    for (int64_t i = 0; i <= L; ++i)
      if (!needs_grad(size_t(i))) grads[size_t(i)] = Tensor();
    return grads;
  }
};

// x [B, T, W], its columns [col, col + C) -> the heads of that block, [B, NH, T, hs] (a view)
Tensor heads(const Tensor& x, int64_t col, int64_t C, int64_t n_head) {
  return split_heads(x.narrow(2, col, C), n_head);
}

// The sources of routed_sum_packed: qkv [B, T, 3C], kv L−1 x [B, T, 2C], routers [L·NH]
void check_routed_sum_packed(const Tensor& k_router, const Tensor& v_router, const Tensor& qkv,
                             const std::vector<Tensor>& kv, int64_t n_head) {
  const char* op = "routed_sum_packed";
  detail::check_defined(op, qkv);
  detail::check_floating(op, qkv);
  ATTIC_CHECK(qkv.dim() == 3 && qkv.size(2) % 3 == 0, op, ": expected qkv [B, T, 3C], got ",
              str(qkv.shape()));
  const int64_t C = qkv.size(2) / 3;
  ATTIC_CHECK(n_head > 0 && C % n_head == 0, op, ": C = ", C, " is not divisible by n_head = ",
              n_head);
  const Shape want{qkv.size(0), qkv.size(1), 2 * C};
  for (size_t l = 0; l < kv.size(); ++l) {
    detail::check_defined(op, kv[l]);
    ATTIC_CHECK(kv[l].shape() == want, op, ": kv ", l, " has shape ", str(kv[l].shape()),
                "; with qkv ", str(qkv.shape()), " each is [B, T, 2C] = ", str(want));
    detail::check_same_dtype(op, qkv, kv[l]);
    ATTIC_CHECK(kv[l].device() == qkv.device(), op, ": kv ", l, " is on ",
                device_name(kv[l].device()), " but qkv is on ", device_name(qkv.device()));
  }
  const auto L = int64_t(kv.size()) + 1;
  for (const Tensor* r : {&k_router, &v_router}) {
    detail::check_defined(op, *r);
    detail::check_same_dtype(op, qkv, *r);
    ATTIC_CHECK(r->device() == qkv.device(), op, ": a router is on ", device_name(r->device()),
                " but qkv is on ", device_name(qkv.device()));
    ATTIC_CHECK(r->dim() == 1 && r->size(0) == L * n_head, op, ": router has shape ",
                str(r->shape()), "; ", L, " sources of ", n_head, " heads need [", L * n_head,
                "]");
  }
}

// The keys (col = C) or values (col = 2C) of every source as heads: kv_0 .. kv_{L−2}, then qkv.
std::vector<Tensor> packed_parts(const Tensor& qkv, const std::vector<Tensor>& kv, int64_t col,
                                 int64_t n_head) {
  const int64_t C = qkv.size(2) / 3;
  std::vector<Tensor> parts;
  for (const Tensor& t : kv) parts.push_back(heads(t, col - C, C, n_head));
  parts.push_back(heads(qkv, col, C, n_head));
  return parts;
}

struct RoutedSumPackedBackward final : autograd::Node {
  Tensor k_router, v_router, qkv;
  std::vector<Tensor> kv;
  int64_t n_head = 1;
  const char* name() const override { return "RoutedSumPackedBackward"; }
  // g [B, T, 3C] -> d k_router, d v_router, d qkv [B, T, 3C], d kv_l [B, T, 2C]: each source's
  // column blocks get router · g's, its q block (qkv only) g's own.
  std::vector<Tensor> backward(const Tensor& g) override {
    const int64_t C = qkv.size(2) / 3, L = int64_t(kv.size()) + 1;
    std::vector<Tensor> grads(static_cast<size_t>(L + 2));
    if (autograd::GradMode::is_enabled()) {  // create_graph: public ops, differentiable
      std::vector<Tensor> dk(static_cast<size_t>(L)), dv(static_cast<size_t>(L)), dwk, dwv;
      const Tensor gk = heads(g, C, C, n_head), gv = heads(g, 2 * C, C, n_head);
      const std::vector<Tensor> ks = packed_parts(qkv, kv, C, n_head);
      const std::vector<Tensor> vs = packed_parts(qkv, kv, 2 * C, n_head);
      for (int64_t l = 0; l < L; ++l) {
        dk[size_t(l)] = merge_heads(gk * weights_of(k_router, l, n_head));
        dv[size_t(l)] = merge_heads(gv * weights_of(v_router, l, n_head));
        dwk.push_back(sum(gk * ks[size_t(l)], {0, 2, 3}));
        dwv.push_back(sum(gv * vs[size_t(l)], {0, 2, 3}));
      }
      grads[0] = cat(dwk, 0);
      grads[1] = cat(dwv, 0);
      grads[2] = cat({g.narrow(2, 0, C), dk[size_t(L - 1)], dv[size_t(L - 1)]}, 2);
      for (int64_t l = 0; l + 1 < L; ++l)
        grads[size_t(l + 3)] = cat({dk[size_t(l)], dv[size_t(l)]}, 2);
    } else {
      const TensorOptions opts = TensorOptions(g.dtype()).device(g.device());
      Backend& be = backend_for(g.device());
      grads[0] = empty(k_router.shape(), opts);
      grads[1] = empty(v_router.shape(), opts);
      grads[2] = empty(qkv.shape(), opts);
      for (int64_t l = 0; l + 1 < L; ++l) grads[size_t(l + 3)] = empty(kv[size_t(l)].shape(), opts);
      const std::vector<Tensor> dkv(grads.begin() + 3, grads.end());
      be.copy(detail::ktensor(grads[2].narrow(2, 0, C)), detail::ktensor(g.narrow(2, 0, C)));
      for (int64_t col : {C, 2 * C}) {
        std::vector<KTensor> dsrc, src;
        for (const Tensor& d : packed_parts(grads[2], dkv, col, n_head))
          dsrc.push_back(detail::ktensor(d));
        for (const Tensor& s : packed_parts(qkv, kv, col, n_head)) src.push_back(detail::ktensor(s));
        const Tensor& w = col == C ? k_router : v_router;
        be.routed_sum_backward(dsrc, detail::ktensor(grads[col == C ? 0 : 1]),
                               detail::ktensor(heads(g, col, C, n_head)), detail::ktensor(w), src);
      }
    }
    for (size_t i = 0; i < grads.size(); ++i)
      if (!needs_grad(i)) grads[i] = Tensor();
    return grads;
  }
};

}  // namespace

// router [L·NH], parts L x [B, NH, T, hs] -> [B, NH, T, hs]: Σ_l router[l·NH + h] · parts_l[:, h]
Tensor routed_sum_naive(const Tensor& router, const std::vector<Tensor>& parts) {
  check_routed_sum(router, parts);
  const int64_t n_head = parts[0].size(1);
  Tensor out;
  for (int64_t l = 0; l < int64_t(parts.size()); ++l) {
    const Tensor term = parts[size_t(l)] * weights_of(router, l, n_head);
    out = l == 0 ? term : out + term;
  }
  return out;
}

// router [L·NH], parts L x [B, NH, T, hs] -> [B, NH, T, hs], as routed_sum_naive
Tensor routed_sum(const Tensor& router, const std::vector<Tensor>& parts) {
  check_routed_sum(router, parts);
  Backend& be = backend_for(router.device());
  if (!be.fused_routed_sum()) return routed_sum_naive(router, parts);
  const Tensor w = router.contiguous();
  Tensor out = empty(parts[0].shape(), TensorOptions(router.dtype()).device(router.device()));
  std::vector<KTensor> src;
  for (const Tensor& p : parts) src.push_back(detail::ktensor(p));
  be.routed_sum(detail::ktensor(out), detail::ktensor(w), src);
  std::vector<Tensor> inputs{router};
  inputs.insert(inputs.end(), parts.begin(), parts.end());
  if (autograd::needs_grad(inputs)) {
    auto node = std::make_shared<RoutedSumBackward>();
    node->router = w;
    node->parts = parts;
    autograd::connect(out, node, inputs);
  }
  return out;
}

// k_router, v_router [L·NH], qkv [B, T, 3C], kv L−1 x [B, T, 2C] -> [B, T, 3C]:
//   q | Σ_l k_router[l·NH + h] · k_l[:, h] | Σ_l v_router[l·NH + h] · v_l[:, h]
// source l < L−1 the columns k_l | v_l of kv[l], source L−1 the k and v columns of qkv
Tensor routed_sum_packed_naive(const Tensor& k_router, const Tensor& v_router, const Tensor& qkv,
                               const std::vector<Tensor>& kv, int64_t n_head) {
  check_routed_sum_packed(k_router, v_router, qkv, kv, n_head);
  const int64_t C = qkv.size(2) / 3;
  return cat({qkv.narrow(2, 0, C),
              merge_heads(routed_sum_naive(k_router, packed_parts(qkv, kv, C, n_head))),
              merge_heads(routed_sum_naive(v_router, packed_parts(qkv, kv, 2 * C, n_head)))},
             2);
}

// as routed_sum_packed_naive, by the backend's routed_sum kernel where it has one
Tensor routed_sum_packed(const Tensor& k_router, const Tensor& v_router, const Tensor& qkv,
                         const std::vector<Tensor>& kv, int64_t n_head) {
  check_routed_sum_packed(k_router, v_router, qkv, kv, n_head);
  Backend& be = backend_for(qkv.device());
  if (!be.fused_routed_sum()) return routed_sum_packed_naive(k_router, v_router, qkv, kv, n_head);
  const int64_t C = qkv.size(2) / 3;
  const Tensor wk = k_router.contiguous(), wv = v_router.contiguous();
  Tensor out = empty(qkv.shape(), TensorOptions(qkv.dtype()).device(qkv.device()));
  {
    autograd::NoGradGuard no_grad;  // the head views below only address memory for the kernels
    be.copy(detail::ktensor(out.narrow(2, 0, C)), detail::ktensor(qkv.narrow(2, 0, C)));
    for (int64_t col : {C, 2 * C}) {
      std::vector<KTensor> src;
      for (const Tensor& s : packed_parts(qkv, kv, col, n_head)) src.push_back(detail::ktensor(s));
      be.routed_sum(detail::ktensor(heads(out, col, C, n_head)),
                    detail::ktensor(col == C ? wk : wv), src);
    }
  }
  std::vector<Tensor> inputs{k_router, v_router, qkv};
  inputs.insert(inputs.end(), kv.begin(), kv.end());
  if (autograd::needs_grad(inputs)) {
    auto node = std::make_shared<RoutedSumPackedBackward>();
    node->k_router = wk;
    node->v_router = wv;
    node->qkv = qkv;
    node->kv = kv;
    node->n_head = n_head;
    autograd::connect(out, node, inputs);
  }
  return out;
}

}  // namespace attic
