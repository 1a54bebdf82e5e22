// Chapter 13's exercise, solved: the comparison of tests/models/test_gpt_vs_pytorch.cpp,
// made to fail on NaN.
//
// The chapter's question: what is the `+ 1e-8` of the rule for, and what does the rule become
// where it matters?
// Answer: a reference whose every element is 0 (a gradient that is exactly zero, such as that
// of a parameter the loss does not reach), where max |b| = 0 and the rule would divide by
// zero. There it is max |a| / 1e-8 < tol, an absolute test: a passes only if every element
// is within tol · 1e-8 of zero. Where max |b| is much larger than 1e-8 the term changes
// nothing.
#include "compare.h"

#include <cmath>
#include <limits>
#include <vector>

#include "tensor/error.h"

using namespace attic;

// a, b [any shape, the same] -> max |a - b|, max |a - b| / (max |b| + 1e-8), and rel < tol.
Comparison compare(const Tensor& a, const Tensor& b, double tol) {
  ATTIC_CHECK(a.shape() == b.shape(), "compare: shapes ", str(a.shape()), " and ",
              str(b.shape()), " differ");
  const std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double d = std::abs(x[i] - y[i]);
    // NaN compares false with everything: std::max would drop it, so test it by name.
    if (std::isnan(d)) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      return {nan, nan, false};
    }
    diff = std::max(diff, d);
    scale = std::max(scale, std::abs(y[i]));
  }
  // The 1e-8 keeps an all-zero reference from dividing by zero.
  const double rel = diff / (scale + 1e-8);
  return {diff, rel, rel < tol};
}
