// Timing for `attic bench`: the best of several runs, each long enough to rise above the
// clock's resolution.
#pragma once

#include <functional>

namespace attic::cli {

// Seconds of one call of f: after one untimed warm-up call (which also sizes the runs), the
// best of `runs` runs, each the mean over enough calls to last `min_run` seconds.
// runs = 0: as many as the call's length allows (5; 3 above 0.1 s; 1 above 1 s).
double best_seconds(const std::function<void()>& f, int runs, double min_run = 0.1);

}  // namespace attic::cli
