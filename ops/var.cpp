// var: the variance, sum((x - mean)^2) / (n - correction).
//
// A composite of public ops (mean, sub, mul, sum, div), so autograd derives its backward:
//   dvar/dx_i = 2 (x_i - mean) / (n - correction)
// (the path through the mean contributes nothing, since Σ (x_i - mean) = 0).
#include <algorithm>

#include "ops/helpers.h"

namespace attic {

// x [*], dims (empty: all) -> var = Σ_dims (x − mean_dims x)² / (n − correction),
// n = the number of elements reduced. correction = 1 is Bessel's unbiased estimate, 0 the
// population variance. Subtracting the mean first (two passes) avoids E[x²] − E[x]², which
// cancels catastrophically when the mean is large next to the spread.
// Like PyTorch, n − correction <= 0 is not an error: the divisor is clamped to 0, giving nan
// where the elements are all equal (0/0, e.g. one element) and inf where they differ.
Tensor var(const Tensor& x, const std::vector<int64_t>& dims_in, int64_t correction,
           bool keepdim) {
  detail::check_defined("var", x);
  detail::check_floating("var", x);
  const std::vector<int64_t> dims = detail::reduce_dims("var", dims_in, x.dim());
  int64_t n = 1;
  for (int64_t d : dims) n *= x.size(d);
  const Tensor centered = x - mean(x, dims, /*keepdim=*/true);
  return sum(centered * centered, dims, keepdim) / double(std::max<int64_t>(n - correction, 0));
}

Tensor var(const Tensor& x, std::initializer_list<int64_t> dims, int64_t correction,
           bool keepdim) {
  return var(x, std::vector<int64_t>(dims), correction, keepdim);
}

Tensor var(const Tensor& x, int64_t correction) {
  return var(x, std::vector<int64_t>{}, correction, false);
}

}  // namespace attic
