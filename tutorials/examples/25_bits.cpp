// Chapter 25: the bits of float32, bfloat16 and float16. Each value is shown in each format
// as sign | exponent | mantissa, its bits in hex, and the value those bits hold. bfloat16 is
// the top half of a float32; float16 has 5 exponent bits and 10 mantissa bits. The
// conversions are tensor/half.h's, which round to nearest, ties to even.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "tensor/half.h"

using namespace attic;

// The low `n` bits of u, most significant first.
std::string binary(uint32_t u, int n) {
  std::string s;
  for (int i = n - 1; i >= 0; --i) s += ((u >> i) & 1u) ? '1' : '0';
  return s;
}

// "s eeeeeeee mmm...": the bits of a format with e exponent and m mantissa bits.
std::string fields(uint32_t u, int e, int m) {
  return binary(u >> (e + m), 1) + " " + binary(u >> m, e) + " " + binary(u, m);
}

void show(const char* name, float x) {
  const uint32_t f = bits_as<uint32_t>(x);
  const uint16_t b = float_to_bfloat16_bits(x), h = float_to_float16_bits(x);
  std::printf("%s\n", name);
  std::printf("  float32   %-34s 0x%08X  %.9g\n", fields(f, 8, 23).c_str(), f, x);
  std::printf("  bfloat16  %-34s 0x%04X      %.9g\n", fields(b, 8, 7).c_str(), b, bfloat16_bits_to_float(b));
  std::printf("  float16   %-34s 0x%04X      %.9g\n", fields(h, 5, 10).c_str(), h, float16_bits_to_float(h));
}

int main() {
  show("1", 1.0f);
  show("-2", -2.0f);
  show("1/3", 1.0f / 3.0f);
  show("pi", 3.14159265f);
  show("65504, float16's largest", 65504.0f);
  show("1e-8", 1e-8f);
  show("1e30", 1e30f);

  // Rounding to nearest: a float32 between two bfloat16 values goes to the nearer one; one
  // exactly halfway (the 16 dropped bits 0x8000) goes to the one whose last kept bit is 0.
  std::printf("\nrounding float32 to bfloat16 (keep 7 mantissa bits; the step above 1 is 2^-7)\n");
  const struct {
    const char* what;
    uint32_t bits;
  } cases[] = {
      {"1 + 2^-9          (below half a step)", 0x3F804000u},
      {"1 + 2^-8          (half: a tie, to even)", 0x3F808000u},
      {"1 + 2^-8 + 2^-23  (just above the tie)", 0x3F808001u},
      {"1 + 3 * 2^-8      (a tie, to even)", 0x3F818000u},
      {"float32's largest (a carry into the exponent)", 0x7F7FFFFFu},
      {"a NaN", 0x7FC00000u},
      {"a NaN of another sign and payload", 0xFFC00001u},
  };
  for (const auto& c : cases) {
    const float x = bits_as<float>(c.bits);
    const uint16_t b = float_to_bfloat16_bits(x);
    // printf spells a NaN "nan" or "-nan" depending on the C library: say it in words.
    const float v = bfloat16_bits_to_float(b);
    char value[32];
    std::snprintf(value, sizeof value, "%.9g", v);
    std::printf("  %-46s 0x%08X -> 0x%04X = %s (mantissa %s)\n", c.what, c.bits, b,
                std::isnan(v) ? "NaN" : value, binary(b, 7).c_str());
  }
  return 0;
}
