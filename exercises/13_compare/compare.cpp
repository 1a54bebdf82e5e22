// Chapter 13's exercise: write the comparison a check against PyTorch rests on.
// Build and check it with `make exercise N=13`; the solution is in solution/compare.cpp.
#include "compare.h"

using namespace attic;

Comparison compare(const Tensor& a, const Tensor& b, double tol) {
  // TODO: the Comparison of compare.h: max_abs = max |a - b|, rel = max_abs / (max |b| + 1e-8),
  //       close = rel < tol; a NaN in a or b makes max_abs and rel NaN and close false; an
  //       attic::Error when the shapes differ.
  (void)a;
  (void)b;
  (void)tol;
  return {0.0, 0.0, true};  // wrong on purpose: everything looks equal
}
