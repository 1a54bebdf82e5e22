// Chapter 16's exercise: your normalize and anomaly_report (see normalize.h).
#include "normalize.h"

#include <stdexcept>

#include "autograd/anomaly_mode.h"
#include "ops/ops.h"

using namespace attic;

// x [N, C] -> [N, C]: (x − mean) / √(var + eps) row by row.
Tensor normalize(const Tensor& x, double eps) {
  // TODO: this is the version from the chapter that returns NaN for some inputs. Find the
  // op that makes it (anomaly_report below), then fix it: eps is not used yet.
  (void)eps;
  Tensor centered = x - mean(x, {1}, true);
  return centered / sqrt(mean(centered * centered, {1}, true));
}

// normalize(x, 0.0) under anomaly mode -> the error's message, or "".
std::string anomaly_report(const Tensor& x) {
  (void)x;
  // TODO: turn anomaly mode on for this scope, call normalize(x, 0.0), catch attic::Error.
  throw std::logic_error("TODO: anomaly_report");
}
