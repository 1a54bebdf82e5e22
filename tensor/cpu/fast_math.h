// exp, erf, sin and cos for float32 written as straight-line arithmetic, so that GCC
// vectorizes the loops that call them (a call to libm's expf or sinf keeps a loop scalar: one
// element per call). All are within a few ulp of libm; tests/tensor/cpu/test_fast_math.cpp measures
// the error over the whole float range that matters. Double keeps libm everywhere.
#pragma once

#include "tensor/cpu/cpu_isa.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace attic::cpu::ATTIC_CPU_ISA {

// The core of the two exps below, for x already clamped to where 2^n is finite:
//   e^x = 2^n · e^r,  n = round(x / ln 2),  r = x - n ln 2 ∈ [-ln2/2, ln2/2]
//   e^r ≈ 1 + r + r² P(r), P of degree 5 (Cephes' expf polynomial).
// Returns e^r, and n in `n`. ln 2 is split into a high part with few mantissa bits and a
// low remainder (Cody-Waite), so that n · ln2_hi is exact and r keeps its low bits.
// Forced inline: the kernels' loops that call the exps must see straight-line arithmetic.
[[gnu::always_inline]] inline float exp_reduced(float x, int32_t& n) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  // round(x / ln 2) by the 1.5 · 2^23 trick: adding it pushes the fraction bits out of the
  // float, and the low bits of the sum are then n itself.
  constexpr float kRound = 12582912.0f;
  const float big = x * kLog2e + kRound;
  const float nf = big - kRound;
  n = std::bit_cast<int32_t>(big) - std::bit_cast<int32_t>(kRound);
  const float r = (x - nf * kLn2Hi) - nf * kLn2Lo;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  return r * r * p + r + 1.0f;
}

// e^x for float32, about 1 ulp. 2^n is built from exponent bits as two factors
// 2^(n/2) 2^(n - n/2): each factor stays a normal float down to n = -149, so results fall
// into denormals gradually, as libm's do.
inline float exp_f32(float x) {
  constexpr float kMax = 88.7228394f;   // ln(FLT_MAX)
  constexpr float kMin = -103.972084f;  // ln(smallest denormal)
  int32_t n;
  const float er = exp_reduced(x < kMin ? kMin : (x > kMax ? kMax : x), n);  // NaN passes
  const int32_t h = n >> 1;
  const float s1 = std::bit_cast<float>((h + 127) << 23);
  const float s2 = std::bit_cast<float>((n - h + 127) << 23);
  const float y = er * s1 * s2;
  return x < kMin ? 0.0f : (x > kMax ? std::numeric_limits<float>::infinity() : y);
}

// e^x for x <= 0 only: the e^(x - max) of a softmax and the e^(-x²/2) of a normal density,
// cheaper than exp_f32: there is no overflow to guard against, and a result below FLT_MIN
// (x < ln FLT_MIN ≈ -87.34) is flushed to 0 instead of falling through the denormals, so
// that 2^n is one exponent field (n >= -126). Above that it is exp_f32, to the same ~1 ulp.
// NaN passes through; -inf gives 0.
inline float exp_nonpos_f32(float x) {
  constexpr float kMin = -87.3365447f;  // ln(FLT_MIN)
  int32_t n;
  const float er = exp_reduced(x < kMin ? kMin : x, n);
  const float y = er * std::bit_cast<float>((n + 127) << 23);
  return x < kMin ? 0.0f : y;
}

// erf(x) for float32, a few ulp: the rational minimax approximation Eigen uses,
//   erf(x) ≈ x P(x²) / Q(x²),  P of degree 6 and Q of degree 4 in x²,
// on [-4, 4]; beyond that erf(x) rounds to ±1 in float32, so x is clamped there.
inline float erf_f32(float x) {
  const float xc = x < -4.0f ? -4.0f : (x > 4.0f ? 4.0f : x);  // NaN passes through
  const float x2 = xc * xc;
  float p = -2.72614225801306e-10f;
  p = p * x2 + 2.77068142495902e-08f;
  p = p * x2 + -2.10102402082508e-06f;
  p = p * x2 + -5.69250639462346e-05f;
  p = p * x2 + -7.34990630326855e-04f;
  p = p * x2 + -2.95459980854025e-03f;
  p = p * x2 + -1.60960333262415e-02f;
  float q = -1.45660718464996e-05f;
  q = q * x2 + -2.13374055278905e-04f;
  q = q * x2 + -1.68282697438203e-03f;
  q = q * x2 + -7.37332916720468e-03f;
  q = q * x2 + -1.42647390514189e-02f;
  return xc * p / q;
}

// sin and cos for float32, for |x| ≤ kTrigMax (beyond it callers take libm: see
// tensor/cpu/elementwise.cpp). The argument is reduced by multiples of π/2 in double:
//   n = round(x · 2/π),  r = x − n · π/2 ∈ [−π/4, π/4]
// with π/2 split as fdlibm splits it (e_rem_pio2.c): kPio2Hi holds its first 33 bits, so that
// n · kPio2Hi is exact for |n| < 2^20, and kPio2Lo = π/2 − kPio2Hi to double precision. r is
// then exact to about 2^-66, well inside float's precision even where sin x is near 0.
// sin r and cos r are their Taylor series in double up to r⁹ and r¹⁰: the first terms left
// out are below (π/4)^11 / 11! ≈ 1.8e-9 and (π/4)^12 / 12! ≈ 1.2e-10, under a tenth of a float
// ulp. So the results are libm's, but for the final rounding to float.
inline constexpr float kTrigMax = 524288.0f;  // 2^19: |n| < 2^19 · 2/π < 2^20

// x -> r, and the quadrant n mod 4 in `quadrant`
[[gnu::always_inline]] inline double trig_reduce(float x, int64_t& quadrant) {
  constexpr double k2OverPi = 0.63661977236758134308;
  constexpr double kPio2Hi = 1.57079632673412561417e+00;  // 0x3FF921FB54400000
  constexpr double kPio2Lo = 6.07710050650619224932e-11;  // 0x3DD0B4611A626331
  // round(x · 2/π) by the 1.5 · 2^52 trick (exp_reduced's, in double); the low bits of the
  // sum are then 2^51 + n, whose last two are n mod 4 for either sign of n.
  constexpr double kRound = 6755399441055744.0;
  const double xd = double(x);
  const double big = xd * k2OverPi + kRound;
  const double n = big - kRound;
  quadrant = std::bit_cast<int64_t>(big) & 3;
  return (xd - n * kPio2Hi) - n * kPio2Lo;
}

// sin r and cos r for |r| ≤ π/4
[[gnu::always_inline]] inline double sin_taylor(double r) {
  const double r2 = r * r;
  return r + r * r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362880))));
}
[[gnu::always_inline]] inline double cos_taylor(double r) {
  const double r2 = r * r;
  return 1.0 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 +
                                                                      r2 * (-1.0 / 3628800)))));
}

// sin x = sin r, cos r, −sin r, −cos r in quadrants 0, 1, 2, 3; cos x is sin of the next one.
// Both series are computed and one is picked by a bit mask, and the sign is flipped by xor
// into the sign bit ((q & 2) << 62 is 2^63 or 0): with no branch, and no conversion from
// int64 (which AVX2 lacks), the loops that call these vectorize.
[[gnu::always_inline]] inline float sin_of_quadrant(double r, int64_t q) {
  const uint64_t s = std::bit_cast<uint64_t>(sin_taylor(r));
  const uint64_t c = std::bit_cast<uint64_t>(cos_taylor(r));
  const uint64_t odd = uint64_t(0) - uint64_t(q & 1);  // all ones in quadrants 1 and 3
  return float(std::bit_cast<double>(((c & odd) | (s & ~odd)) ^ (uint64_t(q & 2) << 62)));
}
inline float sin_f32(float x) {
  int64_t q;
  const double r = trig_reduce(x, q);
  return sin_of_quadrant(r, q);
}
inline float cos_f32(float x) {
  int64_t q;
  const double r = trig_reduce(x, q);
  return sin_of_quadrant(r, q + 1);
}

// The kernels' entry points: the float32 forms above for float, libm for double (double is
// the precision reference; gradcheck runs in it).
template <class T> T vexp(T x) {
  if constexpr (std::is_same_v<T, float>) return exp_f32(x);
  else return std::exp(x);
}
template <class T> T vexp_nonpos(T x) {  // x <= 0
  if constexpr (std::is_same_v<T, float>) return exp_nonpos_f32(x);
  else return std::exp(x);
}
template <class T> T verf(T x) {
  if constexpr (std::is_same_v<T, float>) return erf_f32(x);
  else return std::erf(x);
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
