// Adam (Kingma & Ba, 2015) and AdamW (Loshchilov & Hutter, 2019) — PyTorch's algorithms.
//
// With g = p.grad, t = the step count of p (1 on its first update), lr and weight decay wd
// from p's group:
//   Adam:   g = g + wd p                 (L2: the decay goes through the moments)
//   AdamW:  p = p (1 - lr wd)            (decoupled: the decay skips the moments)
//   m = b1 m + (1 - b1) g                (first moment, exp_avg; starts at 0)
//   v = b2 v + (1 - b2) g²               (second moment, exp_avg_sq; starts at 0)
//   p = p - lr / (1 - b1^t) · m / (√v / √(1 - b2^t) + eps)
// m and v start at 0, so early on they are too small by the factors 1 - b1^t and 1 - b2^t;
// dividing by those factors (bias correction) undoes it.
#pragma once

#include <utility>

#include "optim/optimizer.h"

namespace attic::optim {

// The options Adam and AdamW share. Self is the options class itself, so that a chain of
// setters keeps its type: AdamWOptions(6e-4).betas({0.9, 0.95}).weight_decay(0.1).
template <class Self>
class AdamOptionsBase {
 public:
  Self& lr(double v) { lr_ = v; return self(); }
  Self& betas(std::pair<double, double> v) { betas_ = v; return self(); }
  Self& eps(double v) { eps_ = v; return self(); }
  Self& weight_decay(double v) { weight_decay_ = v; return self(); }
  double lr() const { return lr_; }
  std::pair<double, double> betas() const { return betas_; }
  double eps() const { return eps_; }
  double weight_decay() const { return weight_decay_; }

 protected:
  AdamOptionsBase(double lr, double weight_decay) : lr_(lr), weight_decay_(weight_decay) {}

 private:
  Self& self() { return static_cast<Self&>(*this); }
  double lr_;
  std::pair<double, double> betas_{0.9, 0.999};
  double eps_ = 1e-8;
  double weight_decay_;
};

// PyTorch's defaults: lr 1e-3, betas (0.9, 0.999), eps 1e-8, weight_decay 0.
class AdamOptions : public AdamOptionsBase<AdamOptions> {
 public:
  explicit AdamOptions(double lr = 1e-3) : AdamOptionsBase(lr, 0.0) {}
};

// The same, with weight_decay 1e-2 (PyTorch's AdamW default).
class AdamWOptions : public AdamOptionsBase<AdamWOptions> {
 public:
  explicit AdamWOptions(double lr = 1e-3) : AdamOptionsBase(lr, 1e-2) {}
};

// Adam with L2 weight decay; AdamW below is the same class with decoupled decay.
class Adam : public Optimizer {
 public:
  explicit Adam(std::vector<Tensor> params, const AdamOptions& options = AdamOptions());
  Adam(std::vector<ParamGroup> groups, const AdamOptions& options = AdamOptions());
  void step() override;

  std::pair<double, double> betas() const { return betas_; }
  double eps() const { return eps_; }
  bool decoupled() const { return decoupled_; }

 protected:
  Adam(const char* name, std::vector<ParamGroup> groups, double lr, double weight_decay,
       std::pair<double, double> betas, double eps, bool decoupled);
  std::vector<std::string> buffer_names() const override { return {"exp_avg", "exp_avg_sq"}; }

 private:
  std::pair<double, double> betas_;
  double eps_;
  bool decoupled_;
};

class AdamW : public Adam {
 public:
  explicit AdamW(std::vector<Tensor> params, const AdamWOptions& options = AdamWOptions());
  AdamW(std::vector<ParamGroup> groups, const AdamWOptions& options = AdamWOptions());
};

// The update of one parameter written with tensor ops, a dozen passes over it: the readable
// form, and the reference that the fused kernel step() runs (adam_step_) is tested against.
void adam_update_naive(const Tensor& p, const Tensor& g, const Tensor& m, const Tensor& v,
                       const AdamStep& step);

}  // namespace attic::optim
