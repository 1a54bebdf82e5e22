#include "models/sampling.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace attic::models {

// logits [B, V] -> [B, 1]
Tensor sample_next(const Tensor& logits, double temperature, int64_t top_k, Generator& gen) {
  ATTIC_CHECK(logits.dim() == 2, "sample_next: logits of shape ", str(logits.shape()), " must be [B, V]");
  const int64_t B = logits.size(0), V = logits.size(1);
  const std::vector<double> all = logits.to_vector<double>();
  std::vector<int64_t> next(size_t(B), 0);
  for (int64_t b = 0; b < B; ++b) {
    std::vector<double> l(all.begin() + b * V, all.begin() + (b + 1) * V);
    if (temperature == 0) {
      next[size_t(b)] = std::max_element(l.begin(), l.end()) - l.begin();
      continue;
    }
    for (double& x : l) x /= temperature;
    if (top_k > 0 && top_k < V) {  // everything below the k-th largest logit is dropped
      std::vector<double> sorted = l;
      std::nth_element(sorted.begin(), sorted.begin() + (top_k - 1), sorted.end(), std::greater<>());
      const double kth = sorted[size_t(top_k - 1)];
      for (double& x : l) if (x < kth) x = -std::numeric_limits<double>::infinity();
    }
    // softmax with the max subtracted (exp never overflows), then one categorical draw
    const double m = *std::max_element(l.begin(), l.end());
    double total = 0;
    for (double& x : l) total += (x = std::exp(x - m));
    double u = gen.uniform() * total;
    int64_t pick = V - 1;
    for (int64_t i = 0; i < V; ++i)
      if ((u -= l[size_t(i)]) < 0) { pick = i; break; }
    next[size_t(b)] = pick;
  }
  return from_vector(next, {B, 1});
}

}  // namespace attic::models
