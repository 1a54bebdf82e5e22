// Chapter 13's exercise: write the comparison a check against PyTorch rests on.
// Build and check it with `make exercise N=13`; the solution is in solution/compare.cpp.
#include "compare.h"

using namespace attic;

Comparison compare(const Tensor& a, const Tensor& b, double tol) {
  // TODO 1: refuse two tensors of different shapes (ATTIC_CHECK or attic::fail throw
  //         attic::Error).
  // TODO 2: max |a - b| and max |b| over all elements (to_vector<double>() gives them as
  //         numbers), rel = max_abs / (max |b| + 1e-8).
  // TODO 3: a NaN anywhere must make the result NaN and not close. Beware: std::max(x, NaN)
  //         is x, so a plain running maximum skips NaNs silently.
  (void)a;
  (void)b;
  (void)tol;
  return {0.0, 0.0, true};  // wrong on purpose: everything looks equal
}
