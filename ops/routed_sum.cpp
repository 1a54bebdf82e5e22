// routed_sum: route attention's sum over sources (Vadimbuildercxx/reflex_attention,
// model.py, attention_type = "route"), every head its own weight for each source:
//
//   y[:, h] = Σ_l w[l·NH + h] · x_l[:, h]            x_l, y [B, NH, T, hs], w [L·NH]
//
// Its derivative, with g = ∂L/∂y:
//   ∂L/∂x_l[:, h] = w[l·NH + h] · g[:, h]          ∂L/∂w[l·NH + h] = Σ_{b, t, i} g · x_l  (over head h)
//
// routed_sum_math is the same sum as multiplies and adds, as the fork writes it; routed_sum
// runs one kernel each way where the backend has one (the CPU's: tensor/cpu/routed_sum.cpp),
// else routed_sum_math. Its backward is then the kernel too, unless a graph of the backward is
// recorded (create_graph), where it is the public ops above and differentiable again.
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

}  // namespace

// router [L·NH], parts L x [B, NH, T, hs] -> [B, NH, T, hs]: Σ_l router[l·NH + h] · parts_l[:, h]
Tensor routed_sum_math(const Tensor& router, const std::vector<Tensor>& parts) {
  check_routed_sum(router, parts);
  const int64_t n_head = parts[0].size(1);
  Tensor out;
  for (int64_t l = 0; l < int64_t(parts.size()); ++l) {
    const Tensor term = parts[size_t(l)] * weights_of(router, l, n_head);
    out = l == 0 ? term : out + term;
  }
  return out;
}

// router [L·NH], parts L x [B, NH, T, hs] -> [B, NH, T, hs], as routed_sum_math
Tensor routed_sum(const Tensor& router, const std::vector<Tensor>& parts) {
  check_routed_sum(router, parts);
  Backend& be = backend_for(router.device());
  if (!be.fused_routed_sum()) return routed_sum_math(router, parts);
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

}  // namespace attic
