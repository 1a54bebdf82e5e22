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
  // TODO: r.loss and r.dlogits as cross_entropy_loops.h defines them: the mean over the rows
  //       whose target is not ignore_index, a 0 gradient in the ignored rows, and finite for
  //       logits so large that e^logits overflows a float.
  throw std::logic_error("TODO: cross_entropy_loops is not written yet");
  return r;
}
