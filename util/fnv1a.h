// FNV-1a, 64 bits (Fowler, Noll and Vo; the parameters of draft-eastlake-fnv): a checksum
// small enough to read in one go. Each byte is xor-ed into the state, which is then
// multiplied by the FNV prime, so a changed, moved or missing byte changes the result.
// It catches accidents (a torn write, an edited header, a flipped bit), not an attacker.
//
//   util::Fnv1a h;
//   h.update(data, n);
//   h.update(more, m);      // the same as one update over both
//   std::string hex = util::hex16(h.value());
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace attic::util {

class Fnv1a {
 public:
  // state <- (state xor byte) * prime, for each of the n bytes at data, in order.
  void update(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) state_ = (state_ ^ p[i]) * kPrime;
  }
  uint64_t value() const { return state_; }

 private:
  static constexpr uint64_t kOffsetBasis = 0xcbf29ce484222325ULL;
  static constexpr uint64_t kPrime = 0x100000001b3ULL;
  uint64_t state_ = kOffsetBasis;
};

// v as 16 lower-case hex digits, leading zeros kept (a fixed width, so the digits can be
// written into a file after the rest of it).
inline std::string hex16(uint64_t v) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) s[size_t(i)] = digits[v & 0xF];
  return s;
}

}  // namespace attic::util
