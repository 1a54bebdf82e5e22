// Chapter 16's exercise, solved: normalize with eps under the root, and anomaly_report.
//
// The chapter's question: Why do the division's NaNs start at flat index 3, and why would the
// gradient have been bad even if the forward had been fine (16.2's second example)?
// Answer: The second row of [[1, 2, 3], [5, 5, 5]] has all its values equal: centred it is all
// zeros, its variance is 0 and so is its root, and each of its three elements is 0 / 0 = NaN. The
// first row divides by √(2/3) and is fine, so the NaNs are flat indices 3, 4 and 5 of the [2, 3]
// output, and the report names the division's input `Sqrt [2, 1]`, the per-row root.
//
// Even a forward that gave a finite value there would leave the backward bad: the derivative of the
// root, d√v/dv = 1 / (2√v), is infinite at v = 0, as for `sqrt` at 0 in 16.2's second example, so
// the gradient of every element of such a row would be Inf or NaN. eps under the root mends both:
// √(0 + eps) is positive, and 1 / (2√eps) is finite.
#include "normalize.h"

#include "autograd/anomaly_mode.h"
#include "ops/ops.h"

using namespace attic;

// x [N, C] -> [N, C]: (x − mean) / √(var + eps) row by row. A row whose values are all
// equal has var = 0; without eps its root is 0 and the division 0/0 = NaN. eps also keeps
// the backward finite: d√v/dv = 1 / (2√v) is infinite at v = 0.
Tensor normalize(const Tensor& x, double eps) {
  Tensor centered = x - mean(x, {1}, true);
  return centered / sqrt(mean(centered * centered, {1}, true) + eps);
}

// normalize(x, 0.0) under anomaly mode -> the error's message, or "".
std::string anomaly_report(const Tensor& x) {
  autograd::DetectAnomalyGuard anomaly;  // on for this scope only
  try {
    normalize(x, 0.0);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
