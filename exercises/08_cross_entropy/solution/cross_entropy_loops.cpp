// Chapter 8 exercise, solved: cross-entropy with ignore_index as loops over floats.
#include "cross_entropy_loops.h"

#include <algorithm>
#include <cmath>

// logits [N, V], targets [N] -> the mean loss over the kept rows and dloss/dlogits [N, V]
//   loss = -(1/count) Σ_{n kept} (x[n, t_n] - logsumexp(x[n])),
//   dlogits[n, c] = (e^(x[n, c] - logsumexp(x[n])) - δ(c, t_n)) / count
CrossEntropyResult cross_entropy_loops(const std::vector<float>& logits,
                                       const std::vector<int64_t>& targets, int64_t V,
                                       int64_t ignore_index) {
  const int64_t N = int64_t(targets.size());
  CrossEntropyResult r{0.0f, std::vector<float>(size_t(N * V), 0.0f)};
  int64_t count = 0;
  for (int64_t t : targets) count += t != ignore_index;
  for (int64_t n = 0; n < N; ++n) {
    const int64_t t = targets[size_t(n)];
    if (t == ignore_index) continue;
    const float* x = &logits[size_t(n * V)];
    // log Σ e^x = m + log Σ e^(x - m), m the row's max: each exponent is <= 0 (no overflow)
    // and the largest term is 1 (the sum never underflows to 0).
    const float m = *std::max_element(x, x + V);
    float total = 0;
    for (int64_t c = 0; c < V; ++c) total += std::exp(x[c] - m);
    const float logsumexp = m + std::log(total);
    // x[t] - m first: both are large, their difference is exact when they are close
    r.loss += (std::log(total) - (x[t] - m)) / float(count);
    float* dx = &r.dlogits[size_t(n * V)];
    for (int64_t c = 0; c < V; ++c)
      dx[c] = (std::exp(x[c] - logsumexp) - (c == t ? 1.0f : 0.0f)) / float(count);
  }
  return r;
}
