// Chapter 13's exercise, solved: the comparison of tests/models/test_gpt_vs_pytorch.cpp,
// made to fail on NaN.
//
// The chapter's question: Why does the rule divide by max |b| rather than by each |b| element?
// Answer: The NaN case is the one a plain running maximum gets wrong, silently; a check that passes
// on NaN is worse than none, since it vouches for a broken model. And dividing element by element
// would fail on the entries near zero that every gradient has, for rounding alone: the rule
// compares errors with the size of the tensor they live in.
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
