// Timing for `attic bench`: the best of several runs, each long enough to rise above the
// clock's resolution.
#pragma once

#include <cstddef>
#include <functional>

#include "ops/ops.h"

namespace attic::lab {

// Seconds of one call of f: after one untimed warm-up call (which also sizes the runs), the
// best of `runs` runs, each the mean over enough calls to last `min_run` seconds.
// runs = 0: as many as the call's length allows (5; 3 above 0.1 s; 1 above 1 s).
double best_seconds(const std::function<void()>& f, int runs, double min_run = 0.1);

// One attention's cost at one length: seconds of the forward without a graph, seconds of
// forward + backward, and the most bytes of CPU tensor storage held during forward +
// backward beyond what was held before.
struct FwdBwd {
  double fwd = 0, fwd_bwd = 0;
  size_t peak = 0;
};
// forward() computes the output from leaves that require grad; clear() drops their grads.
// The backward starts from sum(output).
FwdBwd time_fwd_bwd(const std::function<Tensor()>& forward, const std::function<void()>& clear);

}  // namespace attic::lab
