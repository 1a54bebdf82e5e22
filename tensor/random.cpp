#include "tensor/random.h"

#include <cmath>

namespace attic {

// splitmix64 spreads one seed over the four state words (the xoshiro authors' advice:
// an all-zero state would be a fixed point).
static uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void Generator::manual_seed(uint64_t seed) {
  for (auto& w : s_) w = splitmix64(seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// xoshiro256** (Blackman & Vigna, 2018).
uint64_t Generator::next_u64() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

// The top 53 bits, scaled by 2^-53, are exactly the doubles of [0, 1) on a uniform grid.
double Generator::uniform() { return double(next_u64() >> 11) * 0x1.0p-53; }

// Box-Muller: sqrt(-2 ln u1) cos(2 pi u2) is N(0, 1). 1 - u keeps the log away from 0.
double Generator::normal() {
  const double u1 = 1.0 - uniform();
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

// Rejection sampling removes the modulo bias of next_u64() % range.
int64_t Generator::randint(int64_t low, int64_t high) {
  const uint64_t range = uint64_t(high - low);
  const uint64_t limit = UINT64_MAX - UINT64_MAX % range;
  uint64_t x;
  do x = next_u64(); while (x >= limit);
  return low + int64_t(x % range);
}

Generator& default_generator() {
  static Generator g(0);
  return g;
}

void manual_seed(uint64_t seed) { default_generator().manual_seed(seed); }

}  // namespace attic
