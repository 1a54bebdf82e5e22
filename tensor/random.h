// A small seedable generator (xoshiro256**), so that runs repeat bit for bit on every
// platform and the whole state fits in a checkpoint's metadata.
#pragma once

#include <array>
#include <cstdint>

namespace attic {

class Generator {
 public:
  explicit Generator(uint64_t seed = 0) { manual_seed(seed); }
  void manual_seed(uint64_t seed);
  uint64_t next_u64();
  double uniform();          // U[0, 1) with 53 random bits
  double normal();           // N(0, 1), Box-Muller
  int64_t randint(int64_t low, int64_t high);  // uniform in [low, high)

  std::array<uint64_t, 4> state() const { return s_; }
  void set_state(const std::array<uint64_t, 4>& s) { s_ = s; }

 private:
  std::array<uint64_t, 4> s_{};
};

// The generator every factory and dropout draw from unless given another.
Generator& default_generator();
// Seeds the default generator: manual_seed(1337) makes randn, rand, dropout repeatable.
void manual_seed(uint64_t seed);

}  // namespace attic
