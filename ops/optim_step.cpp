// The optimizers' fused inner loops: one Adam / AdamW step, and the squared norm that
// clip_grad_norm_ needs. Not differentiable; they read gradients and write parameters.
#include <algorithm>

#include "ops/helpers.h"
#include "tensor/swap_in.h"

namespace attic {

namespace {

// p, g, m, v: one shape, dtype and device; p, m, v contiguous. Returns g made contiguous.
Tensor check_adam_operands(const char* op, const Tensor& p, const Tensor& g, const Tensor& m,
                           const Tensor& v) {
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
  return g.contiguous();
}

}  // namespace

// p, g, m, v: one shape, dtype and device; p, m, v contiguous (g is made so).
// The update itself is written out in tensor/cpu/adam.cpp and optim/adam.cpp.
void adam_step_(const Tensor& p, const Tensor& g, const Tensor& m, const Tensor& v,
                const AdamStep& step) {
  const char* op = "adam_step_";
  const Tensor gc = check_adam_operands(op, p, g, m, v);
  ++p.impl()->storage->version;
  run_adam_steps(detail::backend_of(op, {p, g, m, v}),
                 {AdamSlot{detail::ktensor(p), detail::ktensor(gc), detail::ktensor(m),
                           detail::ktensor(v), step}});
}

// adam_step_ for every i at once: p[i], g[i], m[i], v[i] as adam_step_ takes them, with
// steps[i]. The parameters of one device go to its backend as one list (the CPU runs the
// list as one parallel pass); each parameter's update is the one adam_step_ makes.
void adam_steps_(const std::vector<Tensor>& p, const std::vector<Tensor>& g,
                 const std::vector<Tensor>& m, const std::vector<Tensor>& v,
                 const std::vector<AdamStep>& steps) {
  const char* op = "adam_steps_";
  const size_t n = p.size();
  ATTIC_CHECK(g.size() == n && m.size() == n && v.size() == n && steps.size() == n, op,
              ": lists of different lengths (", n, " params, ", g.size(), " grads, ", m.size(),
              " exp_avg, ", v.size(), " exp_avg_sq, ", steps.size(), " steps)");
  std::vector<Tensor> grads(n);  // kept alive until the backends are done
  std::vector<std::pair<Device, std::vector<AdamSlot>>> by_device;
  for (size_t i = 0; i < n; ++i) {
    grads[i] = check_adam_operands(op, p[i], g[i], m[i], v[i]);
    Backend& be = detail::backend_of(op, {p[i], g[i], m[i], v[i]});
    auto it = std::find_if(by_device.begin(), by_device.end(),
                           [&](const auto& d) { return d.first == be.device(); });
    if (it == by_device.end()) it = by_device.insert(by_device.end(), {be.device(), {}});
    it->second.push_back(AdamSlot{detail::ktensor(p[i]), detail::ktensor(grads[i]),
                                  detail::ktensor(m[i]), detail::ktensor(v[i]), steps[i]});
  }
  // The list runs as one pass, in any order: two parameters in one storage would race.
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      ATTIC_CHECK(p[i].impl()->storage != p[j].impl()->storage, op, ": params ", j, " and ", i,
                  " share their storage");
  for (size_t i = 0; i < n; ++i) ++p[i].impl()->storage->version;
  for (const auto& [device, slots] : by_device) run_adam_steps(backend_for(device), slots);
}

// x [*] -> Σ x², summed in double.
double sum_squares(const Tensor& x) {
  detail::check_defined("sum_squares", x);
  detail::check_floating("sum_squares", x);
  return detail::backend_of("sum_squares", {x}).sum_squares(detail::ktensor(x));
}

}  // namespace attic
