// SGD with momentum, dampening, weight decay and Nesterov momentum — PyTorch's algorithm.
//
// With g = p.grad, lr and weight decay wd from p's group, momentum m, dampening d:
//   g = g + wd p                        (L2 weight decay, when wd != 0)
//   b = g on the first step,            (momentum buffer, when m != 0)
//       m b + (1 - d) g afterwards
//   g = g + m b  (nesterov)  or  b
//   p = p - lr g
#pragma once

#include "optim/optimizer.h"

namespace attic::optim {

// SGDOptions(0.1).momentum(0.9).nesterov(true): each setter returns the options, each
// getter of the same name reads them (libtorch's style).
class SGDOptions {
 public:
  explicit SGDOptions(double lr) : lr_(lr) {}
  SGDOptions& lr(double v) { lr_ = v; return *this; }
  SGDOptions& momentum(double v) { momentum_ = v; return *this; }
  SGDOptions& dampening(double v) { dampening_ = v; return *this; }
  SGDOptions& weight_decay(double v) { weight_decay_ = v; return *this; }
  SGDOptions& nesterov(bool v) { nesterov_ = v; return *this; }
  double lr() const { return lr_; }
  double momentum() const { return momentum_; }
  double dampening() const { return dampening_; }
  double weight_decay() const { return weight_decay_; }
  bool nesterov() const { return nesterov_; }

 private:
  double lr_;
  double momentum_ = 0.0;
  double dampening_ = 0.0;
  double weight_decay_ = 0.0;
  bool nesterov_ = false;
};

class SGD : public Optimizer {
 public:
  SGD(std::vector<Tensor> params, const SGDOptions& options);
  SGD(std::vector<ParamGroup> groups, const SGDOptions& options);
  void step() override;
  const SGDOptions& options() const { return options_; }

 protected:
  std::vector<std::string> buffer_names() const override;

 private:
  SGDOptions options_;
};

}  // namespace attic::optim
