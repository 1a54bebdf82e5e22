// Chapter 20's exercise: the causal softmax prefix in one pass, with a running maximum.
// Build and check it with `make exercise N=20`; the solution is in solution/running_max.cpp.
#include "running_max.h"

#include <cmath>
#include <limits>

// s [T], v [T, D] -> y [T, D]
std::vector<double> causal_softmax_prefix(const std::vector<double>& s, const std::vector<double>& v,
                                          int D) {
  const size_t T = s.size();
  std::vector<double> y(T * D, 0.0);
  // TODO: keep the running maximum m, the denominator Σ e^{s_j − m} and the numerator
  //       Σ e^{s_j − m} v_j [D]. At each t: if s_t > m, multiply both sums by e^{m − s_t} and
  //       set m = s_t; then add e^{s_t − m} and e^{s_t − m} v_t; y_t = numerator / denominator.
  (void)s;
  (void)v;
  (void)T;
  return y;
}
