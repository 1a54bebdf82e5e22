// The vectorizable exp and erf of tensor/cpu/fast_math.h against libm, over the inputs that
// matter, and at the edges (under- and overflow, infinities, NaN).
#include "tests/catch.h"

#include <cmath>
#include <limits>

#include "tensor/cpu/fast_math.h"

using namespace attic::cpu;

TEST_CASE("exp_f32 is within 2 ulp of libm's exp over the normal range", "[cpu][fast_math]") {
  // Relative error against exp in double; one float ulp is 2^-23 ≈ 1.19e-7 relative at most.
  double worst = 0;
  for (float x = -87.0f; x < 88.7f; x += 0.0007f) {
    const double want = std::exp(double(x));
    worst = std::max(worst, std::fabs(double(exp_f32(x)) - want) / want);
  }
  CHECK(worst < 2 * 1.19e-7);
}

TEST_CASE("exp_f32 at the edges", "[cpu][fast_math]") {
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(exp_f32(0.0f) == 1.0f);
  CHECK(exp_f32(-inf) == 0.0f);  // softmax's masked entries must vanish exactly
  CHECK(exp_f32(-200.0f) == 0.0f);
  CHECK(exp_f32(inf) == inf);
  CHECK(exp_f32(89.0f) == inf);
  CHECK(std::isnan(exp_f32(std::numeric_limits<float>::quiet_NaN())));
  // Denormal results fall off gradually, as libm's do: e^-100 = 3.7835e-44.
  CHECK(exp_f32(-100.0f) == Approx(std::exp(-100.0f)).epsilon(0.1));
}

TEST_CASE("exp_nonpos_f32: 2 ulp of libm's exp down to ln FLT_MIN, 0 below", "[cpu][fast_math]") {
  double worst = 0;
  for (float x = -87.33f; x <= 0.0f; x += 0.0007f) {
    const double want = std::exp(double(x));
    worst = std::max(worst, std::fabs(double(exp_nonpos_f32(x)) - want) / want);
  }
  CHECK(worst < 2 * 1.19e-7);
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(exp_nonpos_f32(0.0f) == 1.0f);
  CHECK(exp_nonpos_f32(-inf) == 0.0f);  // a masked score
  CHECK(exp_nonpos_f32(-87.5f) == 0.0f);  // flushed: below FLT_MIN
  CHECK(std::isnan(exp_nonpos_f32(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("erf_f32 is within 5e-7 of erf everywhere", "[cpu][fast_math]") {
  // The worst error depends on the target: 3.3e-7 where the compiler contracts each p * x2 + c
  // into one FMA (-march=native on a CPU with FMA), 4.0e-7 (at x = 3.098) where it rounds
  // twice (ATTIC_NATIVE=OFF). The bound holds for both.
  double worst = 0;
  for (float x = -6.0f; x < 6.0f; x += 0.0001f)
    worst = std::max(worst, std::fabs(double(erf_f32(x)) - std::erf(double(x))));
  CHECK(worst < 5e-7);
  CHECK(erf_f32(0.0f) == 0.0f);
  CHECK(erf_f32(std::numeric_limits<float>::infinity()) == Approx(1.0f).margin(1e-7));
  CHECK(std::isnan(erf_f32(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("sin_f32 and cos_f32 are within 1 ulp of libm's over |x| <= kTrigMax",
          "[cpu][fast_math]") {
  // Error in float ulps at the exact value (computed in double); both measured 0.53 ulp at
  // most, the final rounding to float and a little more. Dense near 0, then sparser out to
  // 2^19, where the reduction by π/2 is at its longest.
  auto ulps = [](float got, double want) {
    const float w = float(std::fabs(want));
    const double ulp = double(std::nextafter(w, 2 * w + 1) - w);
    return std::fabs(double(got) - want) / ulp;
  };
  double worst = 0;
  auto check = [&](float x) {
    worst = std::max(worst, ulps(sin_f32(x), std::sin(double(x))));
    worst = std::max(worst, ulps(cos_f32(x), std::cos(double(x))));
  };
  for (float x = -20.0f; x < 20.0f; x += 0.0003f) check(x);
  for (float x = 20.0f; x < kTrigMax; x *= 1.0001f) {
    check(x);
    check(-x);
  }
  // Close to multiples of π/2, where sin or cos nearly cancels: the floats nearest n π/2.
  for (int n = 1; n < 2000; ++n) {
    const float x = float(n * 1.5707963267948966);
    for (float y : {x, std::nextafter(x, 0.0f), std::nextafter(x, 1e9f)}) check(y);
  }
  CHECK(worst < 1.0);
  CHECK(sin_f32(0.0f) == 0.0f);
  CHECK(cos_f32(0.0f) == 1.0f);
  CHECK(std::isnan(sin_f32(std::numeric_limits<float>::quiet_NaN())));
  CHECK(std::isnan(cos_f32(std::numeric_limits<float>::infinity())));
}
