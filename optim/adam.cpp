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
void Adam::step() {
  NoGradGuard no_grad;
  const auto [b1, b2] = betas_;
  for (ParamGroup& group : param_groups()) {
    const double lr = group.lr, wd = group.weight_decay;
    for (Tensor& p : group.params) {
      Tensor g = p.grad();
      if (!g.defined()) continue;
      if (wd != 0) {
        if (decoupled_) p.mul_(1 - lr * wd);
        else g = g + p * wd;  // out of place: p.grad() is left as backward made it
      }
      ParamState& st = state(p);
      if (st.buffers.empty()) {
        st.buffers["exp_avg"] = zeros_like(p);
        st.buffers["exp_avg_sq"] = zeros_like(p);
      }
      const int64_t t = ++st.step;
      Tensor& m = st.buffers.at("exp_avg");
      Tensor& v = st.buffers.at("exp_avg_sq");
      m.mul_(b1).add_(g, 1 - b1);
      v.mul_(b2).add_(g * g, 1 - b2);
      const double bias_correction1 = 1 - std::pow(b1, double(t));
      const double bias_correction2 = 1 - std::pow(b2, double(t));
      // √(v / (1 - b2^t)) as √v / √(1 - b2^t): PyTorch's order, so it rounds the same way.
      Tensor denom = sqrt(v) / std::sqrt(bias_correction2) + eps_;
      p.add_(m / denom, -lr / bias_correction1);
    }
  }
}

}  // namespace attic::optim
