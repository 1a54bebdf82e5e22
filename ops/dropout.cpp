// dropout: during training, zero each element with probability p and scale the survivors
// by 1/(1-p), so every element keeps its expected value: E[y] = (1-p) x / (1-p) = x.
// In eval, the identity.
#include <vector>

#include "ops/helpers.h"

namespace attic {

// x [any shape], p in [0, 1] -> y like x;  y = x * m / (1 - p), m_i = 1 with probability
// 1 - p, else 0 (p = 1: y = 0). The mask is drawn on the host, one gen->uniform() per
// element in row-major order, so a seed fixes it on every device. y = x * (m / (1 - p)) is
// a product with a constant, so mul's backward gives dx = g * m / (1 - p).
Tensor dropout(const Tensor& x, double p, bool training, Generator* gen) {
  detail::check_defined("dropout", x);
  detail::check_floating("dropout", x);
  ATTIC_CHECK(p >= 0.0 && p <= 1.0, "dropout: probability p must be in [0, 1], got ", p);
  if (!training || p == 0.0) return x;
  Generator& g = gen ? *gen : default_generator();
  const double scale = p == 1.0 ? 0.0 : 1.0 / (1.0 - p);
  std::vector<double> mask(size_t(x.numel()));
  for (double& m : mask) m = g.uniform() >= p ? scale : 0.0;
  const Tensor m = from_vector(mask, {x.numel()}).view(x.shape()).to(x.dtype()).to(x.device());
  return x * m;
}

}  // namespace attic
