// Chapter 8 exercise: write cross_entropy_loops (see cross_entropy_loops.h and the chapter's
// "Exercise" section). Check it with `make exercise N=08`.
#include "cross_entropy_loops.h"

#include <cmath>
#include <stdexcept>

// logits [N, V], targets [N] -> the mean loss over the kept rows and dloss/dlogits [N, V]
CrossEntropyResult cross_entropy_loops(const std::vector<float>& logits,
                                       const std::vector<int64_t>& targets, int64_t V,
                                       int64_t ignore_index) {
  const int64_t N = int64_t(targets.size());
  CrossEntropyResult r{0.0f, std::vector<float>(size_t(N * V), 0.0f)};
  (void)logits;
  (void)ignore_index;
  // TODO: count the rows whose target is not ignore_index.
  // TODO: for each kept row n, compute log Σ_c e^logits[n, c] with the log-sum-exp trick
  //       (subtract the row's max first), add its -log p[n, t_n] / count to r.loss, and set
  //       r.dlogits[n, c] = (p[n, c] - δ(c, t_n)) / count. Ignored rows keep a 0 gradient.
  throw std::logic_error("TODO: cross_entropy_loops is not written yet");
  return r;
}
