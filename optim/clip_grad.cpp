#include "optim/clip_grad.h"

#include <cmath>

namespace attic::optim {

double clip_grad_norm_(const std::vector<Tensor>& params, double max_norm) {
  ATTIC_CHECK(max_norm >= 0, "clip_grad_norm_: max_norm must be >= 0, got ", max_norm);
  NoGradGuard no_grad;
  // Σ ||g||² is summed in float64 whatever the gradients' dtype, so that the squares of
  // millions of float32 elements do not lose precision as they add up.
  double total_sq = 0;
  std::vector<Tensor> grads;
  for (size_t i = 0; i < params.size(); ++i) {
    ATTIC_CHECK(params[i].defined(), "clip_grad_norm_: parameter ", i, " is undefined");
    Tensor g = params[i].grad();
    if (!g.defined()) continue;
    total_sq += sum_squares(g);
    grads.push_back(g);
  }
  if (grads.empty()) return 0.0;
  const double total = std::sqrt(total_sq);
  const double coef = max_norm / (total + 1e-6);
  if (coef < 1.0)
    for (Tensor& g : grads) g.mul_(coef);
  return total;
}

}  // namespace attic::optim
