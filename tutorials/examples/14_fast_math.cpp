// Chapter 14: exp and erf that vectorize. libm's expf is a function call per element, so a
// loop that calls it stays scalar; exp_f32 (tensor/cpu/fast_math.h) is straight-line
// arithmetic: e^x = 2^n · e^r with n = round(x / ln 2), r = x - n ln 2, e^r a polynomial.
#include <cmath>
#include <cstdio>
#include <limits>

#include "tensor/cpu/fast_math.h"

using namespace attic::cpu;

int main() {
  // Range reduction by hand for x = 10: n = round(10 / 0.6931) = 14, r = 10 - 14 ln 2.
  const double n = std::round(10.0 / std::log(2.0)), r = 10.0 - n * std::log(2.0);
  std::printf("x = 10: n = %.0f, r = %.4f, 2^n e^r = %.3f, e^10 = %.3f\n", n, r,
              std::ldexp(std::exp(r), int(n)), std::exp(10.0));

  // The error over the whole float range that does not overflow or underflow, in units of
  // the last place (one ulp is 2^-23 of the value, relative, at most).
  double worst_exp = 0, worst_erf = 0;
  for (float x = -87.0f; x < 88.7f; x += 0.001f) {
    const double want = std::exp(double(x));
    worst_exp = std::max(worst_exp, std::fabs(exp_f32(x) - want) / want);
  }
  for (float x = -6.0f; x < 6.0f; x += 0.0001f)
    worst_erf = std::max(worst_erf, std::fabs(erf_f32(x) - std::erf(double(x))));
  std::printf("exp_f32: worst relative error below 1 ulp (1.19e-7): %s\n",
              worst_exp < 1.19e-7 ? "yes" : "no");
  std::printf("erf_f32: worst absolute error below 5e-7: %s\n", worst_erf < 5e-7 ? "yes" : "no");

  // What softmax and a causal mask need at the edges: e^-inf is exactly 0.
  const float inf = std::numeric_limits<float>::infinity();
  std::printf("exp_f32(-inf) = %g, exp_f32(0) = %g, exp_f32(100) = %g\n", exp_f32(-inf),
              exp_f32(0.0f), exp_f32(100.0f));
  return 0;
}
