// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw, "Parallel
// Random Numbers: As Easy as 1, 2, 3" (SC 2011; the Random123 library). It is a keyed
// bijection of a 128-bit counter: the n-th random word is a pure function of (key, n), so
// any element of a dropout mask can be drawn alone, in any order, on any thread or device,
// and drawn again in backward instead of being stored. CUDA's curand and PyTorch's GPU
// dropout use the same generator.
#pragma once

#include <cstdint>

#include "tensor/host_device.h"

namespace attic {

// Four 32-bit words: a counter, or the random words it maps to. (A plain struct, not
// std::array, so that CUDA device code can use it too.)
struct Philox4 {
  uint32_t w[4];
};

// ctr [4], key (k0, k1) -> 4 random 32-bit words. Ten rounds of
//   (c0, c1, c2, c3) -> (hi(M1·c2) ^ c1 ^ k0, lo(M1·c2), hi(M0·c0) ^ c3 ^ k1, lo(M0·c0)),
// the key bumped by the Weyl constants W0, W1 between rounds (Random123, philox.h).
ATTIC_HOST_DEVICE inline Philox4 philox4x32(Philox4 c, uint32_t k0, uint32_t k1) {
  constexpr uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;  // multipliers
  constexpr uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;  // golden ratio, √3 - 1
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(M0) * c.w[0], p1 = uint64_t(M1) * c.w[2];
    c = {{uint32_t(p1 >> 32) ^ c.w[1] ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ c.w[3] ^ k1,
          uint32_t(p0)}};
    k0 += W0;
    k1 += W1;
  }
  return c;
}

// Dropout's mask as a function of (key, element index i): word i % 4 of the block for
// counter (i / 4, 0), keyed by the 64-bit key. The element is kept when its top 24 bits,
// read as u = bits / 2^24 in [0, 1), reach p: kept iff bits >= dropout_threshold(p), an
// integer compare with exactly the probability 1 - p for p a multiple of 2^-24.
ATTIC_HOST_DEVICE inline uint32_t dropout_bits(uint64_t key, uint64_t i) {
  const uint64_t n = i / 4;
  const Philox4 r = philox4x32({{uint32_t(n), uint32_t(n >> 32), 0u, 0u}}, uint32_t(key),
                               uint32_t(key >> 32));
  return r.w[i % 4] >> 8;
}

// ceil(p · 2^24): bits >= it has probability 1 - p (p = 1: 2^24, nothing is kept).
ATTIC_HOST_DEVICE inline uint32_t dropout_threshold(double p) {
  const double t = p * 16777216.0;
  const uint32_t f = uint32_t(t);
  return double(f) < t ? f + 1 : f;
}

}  // namespace attic
