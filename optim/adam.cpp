#include "optim/adam.h"

#include <cmath>

namespace attic::optim {

static std::vector<ParamGroup> one_group(std::vector<Tensor> params) {
  return {{.params = std::move(params)}};
}

Adam::Adam(std::vector<Tensor> params, const AdamOptions& o)
    : Adam(one_group(std::move(params)), o) {}

Adam::Adam(std::vector<ParamGroup> groups, const AdamOptions& o)
    : Adam("Adam", std::move(groups), o.lr(), o.weight_decay(), o.betas(), o.eps(), false) {}

AdamW::AdamW(std::vector<Tensor> params, const AdamWOptions& o)
    : AdamW(one_group(std::move(params)), o) {}

AdamW::AdamW(std::vector<ParamGroup> groups, const AdamWOptions& o)
    : Adam("AdamW", std::move(groups), o.lr(), o.weight_decay(), o.betas(), o.eps(), true) {}

Adam::Adam(const char* name, std::vector<ParamGroup> groups, double lr, double weight_decay,
           std::pair<double, double> betas, double eps, bool decoupled)
    : Optimizer(name, std::move(groups), lr, weight_decay),
      betas_(betas),
      eps_(eps),
      decoupled_(decoupled) {
  ATTIC_CHECK(betas.first >= 0 && betas.first < 1, name, ": invalid beta1 ", betas.first,
              " (must be in [0, 1))");
  ATTIC_CHECK(betas.second >= 0 && betas.second < 1, name, ": invalid beta2 ", betas.second,
              " (must be in [0, 1))");
  check_non_negative(name, "eps", eps);
}

// Every parameter p with a gradient g, m and v shaped like p, t its step count:
//   (Adam) g += wd p  |  (AdamW) p *= 1 - lr wd
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g²
//   p -= lr / (1 - b1^t) · m / (√v / √(1 - b2^t) + eps)
void adam_update_naive(const Tensor& p, const Tensor& g_in, const Tensor& m, const Tensor& v,
                       const AdamStep& s) {
  NoGradGuard no_grad;
  Tensor param = p, g = g_in, exp_avg = m, exp_avg_sq = v;
  if (s.weight_decay != 0) {
    if (s.decoupled) param.mul_(1 - s.lr * s.weight_decay);
    else g = g + param * s.weight_decay;  // out of place: p.grad() is left as backward made it
  }
  exp_avg.mul_(s.beta1).add_(g, 1 - s.beta1);
  exp_avg_sq.mul_(s.beta2).add_(g * g, 1 - s.beta2);
  // √(v / (1 - b2^t)) as √v / √(1 - b2^t): PyTorch's order, so it rounds the same way.
  Tensor denom = sqrt(exp_avg_sq) / std::sqrt(s.bias_correction2) + s.eps;
  param.add_(exp_avg / denom, -s.lr / s.bias_correction1);
}

// The same update, fused: one pass over every parameter at once (tensor/cpu/adam.cpp).
void Adam::step() {
  NoGradGuard no_grad;
  const auto [b1, b2] = betas_;
  std::vector<Tensor> params, grads, exp_avg, exp_avg_sq;
  std::vector<AdamStep> steps;
  for (ParamGroup& group : param_groups()) {
    for (Tensor& p : group.params) {
      Tensor g = p.grad();
      if (!g.defined()) continue;
      ParamState& st = state(p);
      if (st.buffers.empty()) {
        st.buffers["exp_avg"] = zeros_like(p);
        st.buffers["exp_avg_sq"] = zeros_like(p);
      }
      const int64_t t = ++st.step;
      AdamStep s;
      s.lr = group.lr;
      s.weight_decay = group.weight_decay;
      s.beta1 = b1;
      s.beta2 = b2;
      s.eps = eps_;
      s.decoupled = decoupled_;
      s.bias_correction1 = 1 - std::pow(b1, double(t));
      s.bias_correction2 = 1 - std::pow(b2, double(t));
      params.push_back(p);
      grads.push_back(g);
      exp_avg.push_back(st.buffers.at("exp_avg"));
      exp_avg_sq.push_back(st.buffers.at("exp_avg_sq"));
      steps.push_back(s);
    }
  }
  adam_steps_(params, grads, exp_avg, exp_avg_sq, steps);
}

}  // namespace attic::optim
