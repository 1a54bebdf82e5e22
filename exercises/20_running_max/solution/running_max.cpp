// The solution of chapter 20's exercise: a causal softmax prefix with a running maximum.
#include "running_max.h"

#include <cmath>
#include <limits>

// s [T], v [T, D] -> y [T, D]
std::vector<double> causal_softmax_prefix(const std::vector<double>& s, const std::vector<double>& v,
                                          int D) {
  const size_t T = s.size();
  std::vector<double> y(T * D), num(D, 0.0);
  double den = 0.0, m = -std::numeric_limits<double>::infinity();
  for (size_t t = 0; t < T; ++t) {
    if (s[t] > m) {  // a new maximum: rescale what was summed relative to the old one
      const double r = std::exp(m - s[t]);  // e^{m − m'} ≤ 1; 0 at the first step (m = −∞)
      den *= r;
      for (int d = 0; d < D; ++d) num[d] *= r;
      m = s[t];
    }
    const double w = std::exp(s[t] - m);  // ≤ 1: never overflows
    den += w;
    for (int d = 0; d < D; ++d) {
      num[d] += w * v[t * D + d];
      y[t * D + d] = num[d] / den;
    }
  }
  return y;
}
