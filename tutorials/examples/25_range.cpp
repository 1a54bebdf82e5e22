// Chapter 25: range and precision. bfloat16 keeps float32's 8 exponent bits and so its range;
// float16 has 5, and a gradient below 2^-24 (6e-8) becomes 0 in it. That is why training in
// float16 multiplies the loss by a scale first (PyTorch's GradScaler, which nanoGPT's
// train.py uses for float16), and why bfloat16 needs no such thing. Both keep few mantissa
// bits, which is why the weights themselves stay float32.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>

#include "tensor/half.h"

using namespace attic;

float bf16(float x) { return bfloat16_bits_to_float(float_to_bfloat16_bits(x)); }
float fp16(float x) { return float16_bits_to_float(float_to_float16_bits(x)); }

struct Format {
  const char* name;
  int exponent_bits, mantissa_bits;
  float largest, smallest_normal, smallest_subnormal, one_up;  // one_up: the next value after 1
};

int main() {
  // 1. The limits, read from the bit patterns: largest finite 0 11..10 11..1, smallest normal
  //    0 00..01 00..0, smallest subnormal 0 00..00 00..1, and the value just above 1.
  const Format formats[] = {
      {"float32", 8, 23, bits_as<float>(0x7F7FFFFFu), bits_as<float>(0x00800000u),
       bits_as<float>(0x00000001u), bits_as<float>(0x3F800001u)},
      {"bfloat16", 8, 7, bfloat16_bits_to_float(0x7F7F), bfloat16_bits_to_float(0x0080),
       bfloat16_bits_to_float(0x0001), bfloat16_bits_to_float(0x3F81)},
      {"float16", 5, 10, float16_bits_to_float(0x7BFF), float16_bits_to_float(0x0400),
       float16_bits_to_float(0x0001), float16_bits_to_float(0x3C01)},
  };
  std::printf("%-9s %4s %4s %11s %11s %11s %6s %6s\n", "format", "exp", "mant", "largest", "min normal",
              "min subnorm", "step", "error");
  for (const Format& f : formats) {
    // The step above 1 is 2^-mantissa_bits; rounding to nearest errs by at most half a step.
    const int step = int(std::log2(double(f.one_up) - 1.0));
    std::printf("%-9s %4d %4d %11.5g %11.5g %11.5g %6s %6s\n", f.name, f.exponent_bits, f.mantissa_bits,
                double(f.largest), double(f.smallest_normal), double(f.smallest_subnormal),
                ("2^" + std::to_string(step)).c_str(), ("2^" + std::to_string(step - 1)).c_str());
  }

  // 2. Small gradients, stored in each format, with the relative error of the stored value.
  std::printf("\n%-9s %-21s %s\n", "gradient", "as bfloat16", "as float16");
  for (const float g : {1e-2f, 1e-4f, 1e-6f, 1e-7f, 1e-8f, 1e-20f}) {
    const float b = bf16(g), h = fp16(g);
    std::printf("%-9.0e %-10.4e (%5.2f%%)   %-10.4e (%6.2f%%)\n", double(g), double(b),
                100 * std::abs(double(b) - g) / g, double(h), 100 * std::abs(double(h) - g) / g);
  }

  // 3. Loss scaling, GradScaler's way: the loss (so every gradient) times a scale S before
  //    float16 holds them, divided by S again in float32. S is a power of 2, so the scaling
  //    itself is exact. A gradient that overflows to inf makes the scaler skip the step and
  //    halve S; GradScaler starts at S = 2^16 = 65536.
  const float grads[] = {2.0f, 1e-3f, 1e-8f};
  std::printf("\nfloat16 with loss scaling: each gradient times S, stored, then divided by S\n");
  std::printf("  %-7s %10s %10s %10s\n", "S", "2", "1e-3", "1e-8");
  float S = 65536.0f;
  for (;; S /= 2) {
    bool overflow = false;
    std::printf("  %-7.0f", double(S));
    for (const float g : grads) {
      const float stored = fp16(g * S);
      overflow = overflow || std::isinf(stored);
      std::printf(" %10.3e", double(stored));
    }
    std::printf("%s\n", overflow ? "   an inf: skip the step, halve S" : "");
    if (!overflow) break;
  }
  std::printf("  %-7s", "/ S");
  for (const float g : grads) std::printf(" %10.3e", double(fp16(g * S) / S));
  std::printf("\n");

  // 4. Precision: a weight of 1 and 100 updates of -0.001. bfloat16's step just below 1 is
  //    2^-8 = 0.0039, so 1 - 0.001 rounds back to 1 and the weight never moves; float32's
  //    step is 2^-24 and it does. Hence the float32 master weights of mixed precision.
  float w32 = 1.0f, w16 = 1.0f;
  for (int step = 0; step < 100; ++step) {
    w32 -= 0.001f;
    w16 = bf16(w16 - 0.001f);
  }
  std::printf("\n1 - 100 x 0.001: float32 %.4f, bfloat16 %.4f\n", double(w32), double(w16));
  return 0;
}
