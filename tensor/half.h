// The two 16-bit floating types, as storage: bfloat16 and IEEE 754 float16 (binary16), each
// its bits in a uint16_t, with the conversions to and from float32 that every kernel uses.
//
//   float32   s eeeeeeee mmmmmmmmmmmmmmmmmmmmmmm   8 exponent bits, 23 mantissa bits
//   bfloat16  s eeeeeeee mmmmmmm                   float32's top half: same range, 8 bits of precision
//   float16   s eeeee mmmmmmmmmm                   range 6e-5 .. 65504, 11 bits of precision
//
// Rounding is to nearest, ties to even, as IEEE 754 and PyTorch's CPU conversions round. What
// a NaN becomes follows PyTorch's CPU tensors too (Tensor.to on torch 2): every float32 NaN
// becomes the bfloat16 0xFFFF, whatever its sign and payload; a float16 NaN keeps its sign and
// the payload's top 10 bits, with the quiet bit set (the F16C instruction vcvtps2ph's rule).
// Going up to float32 is exact for both, but for float16's signalling NaNs, which come out
// quiet (as PyTorch widens them).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tensor/host_device.h"

// The conversions run in CUDA kernels too (tensor/cuda/elementwise.cu), which nvcc compiles
// as C++17: hence memcpy, not std::bit_cast.

namespace attic {

// The bits of f as a To of the same size.
template <class To, class From>
ATTIC_HOST_DEVICE inline To bits_as(From f) {
  static_assert(sizeof(To) == sizeof(From));
  To t;
  std::memcpy(&t, &f, sizeof t);
  return t;
}

struct bfloat16 {
  uint16_t bits = 0;
};
struct float16 {
  uint16_t bits = 0;
};

// float32 -> bfloat16, round to nearest even: add 0x7FFF, plus 1 when the kept half is odd,
// then drop the low 16 bits. A carry out of the mantissa steps the exponent, which is also
// how the largest finite floats round up to infinity.
ATTIC_HOST_DEVICE inline uint16_t float_to_bfloat16_bits(float f) {
  const uint32_t u = bits_as<uint32_t>(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return 0xFFFF;  // NaN
  const uint32_t bias = 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t((u + bias) >> 16);
}

ATTIC_HOST_DEVICE inline float bfloat16_bits_to_float(uint16_t h) { return bits_as<float>(uint32_t(h) << 16); }

// float32 -> float16, round to nearest even, with float16's subnormals (below 2^-14) and
// overflow to infinity (from 65520 on, the midpoint between 65504 and 2^16).
ATTIC_HOST_DEVICE inline uint16_t float_to_float16_bits(float f) {
  const uint32_t u = bits_as<uint32_t>(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
  const uint32_t a = u & 0x7FFFFFFFu;
  if (a >= 0x7F800000u)  // inf, or NaN: quiet, the payload's top bits kept
    return uint16_t(sign | 0x7C00u | (a > 0x7F800000u ? 0x200u | ((a >> 13) & 0x3FFu) : 0u));
  if (a >= 0x477FF000u) return uint16_t(sign | 0x7C00u);  // rounds to >= 2^16: infinity
  if (a < 0x38800000u) {
    // Below 2^-14: a subnormal float16 m · 2^-24. The float's value a_m · 2^(e-150), with its
    // implicit bit restored, is shifted right to units of 2^-24 and rounded to even.
    if (a < 0x33000000u) return sign;  // below 2^-25, half the smallest subnormal: ±0
    const uint32_t e = a >> 23, m = (a & 0x7FFFFFu) | 0x800000u;
    const uint32_t shift = 126 - e;  // 14 to 24 bits dropped
    const uint32_t kept = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    const uint32_t up = rest > half || (rest == half && (kept & 1u));
    return uint16_t(sign | (kept + up));
  }
  // Normal: rebias the exponent (127 -> 15), then round away the low 13 mantissa bits; a
  // carry steps the exponent, as for bfloat16.
  const uint32_t r = a - 0x38000000u;
  const uint32_t bias = 0xFFFu + ((r >> 13) & 1u);
  return uint16_t(sign | ((r + bias) >> 13));
}

// float16 -> float32, exact: a subnormal float16 becomes a normal float32.
ATTIC_HOST_DEVICE inline float float16_bits_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1F)  // inf, or NaN: the payload kept, quietened (as vcvtph2ps does)
    return bits_as<float>(sign | 0x7F800000u | (m != 0 ? 0x400000u | (m << 13) : 0u));
  if (e != 0) return bits_as<float>(sign | ((e + 112) << 23) | (m << 13));
  if (m == 0) return bits_as<float>(sign);
  // m · 2^-24 exactly, which float32 holds (24 bits of precision).
  const float v = float(m) * 0x1p-24f;
  return (h & 0x8000u) ? -v : v;
}

ATTIC_HOST_DEVICE inline bfloat16 to_bfloat16(float f) { return {float_to_bfloat16_bits(f)}; }
ATTIC_HOST_DEVICE inline float to_float(bfloat16 h) { return bfloat16_bits_to_float(h.bits); }
ATTIC_HOST_DEVICE inline float16 to_float16(float f) { return {float_to_float16_bits(f)}; }
ATTIC_HOST_DEVICE inline float to_float(float16 h) { return float16_bits_to_float(h.bits); }

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>;

// value_cast<O>(x): the element x as type O, as a dtype conversion makes it. A 16-bit type is
// reached and left through float32 (so a double or an int64 rounds twice, as in PyTorch).
template <class O, class I>
ATTIC_HOST_DEVICE inline O value_cast(I x) {
  if constexpr (std::is_same_v<O, I>) return x;  // bits as they are, NaN payloads too
  else if constexpr (is_half_v<I>) return value_cast<O>(to_float(x));
  else if constexpr (std::is_same_v<O, bfloat16>) return to_bfloat16(float(x));
  else if constexpr (std::is_same_v<O, float16>) return to_float16(float(x));
  else return O(x);
}

}  // namespace attic
