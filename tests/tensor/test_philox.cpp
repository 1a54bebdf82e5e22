// Philox4x32-10 (tensor/philox.h) against the known-answer vectors published with Random123
// (kat_vectors, "philox4x32 10"), and the dropout threshold worked out by hand.
#include "tests/catch.h"

#include <cstdint>

#include "tensor/philox.h"

using namespace attic;

namespace {

bool same(const Philox4& a, const Philox4& b) {
  return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2] && a.w[3] == b.w[3];
}

}  // namespace

TEST_CASE("philox4x32-10 gives Random123's known answers", "[philox]") {
  CHECK(same(philox4x32({{0, 0, 0, 0}}, 0, 0),
             {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}));
  CHECK(same(philox4x32({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu,
                        0xffffffffu),
             {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}));
  CHECK(same(philox4x32({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u,
                        0x299f31d0u),
             {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}));
}

TEST_CASE("dropout_bits: element i is word i % 4 of counter i / 4, top 24 bits", "[philox]") {
  // key 0, counter 0 is the first known answer: elements 0..3 are its words >> 8
  CHECK(dropout_bits(0, 0) == 0x6627e8u);
  CHECK(dropout_bits(0, 1) == 0xe169c5u);
  CHECK(dropout_bits(0, 2) == 0xbc57acu);
  CHECK(dropout_bits(0, 3) == 0x9b00dbu);
  // the key's low word is k0, its high word k1; counter (i / 4) splits the same way (n below
  // 2^62, so that 4 n + 3 fits in 64 bits)
  const uint64_t key = (uint64_t(0x299f31d0u) << 32) | 0xa4093822u;
  const uint64_t n = (uint64_t(0x05a308d3u) << 32) | 0x243f6a88u;
  const Philox4 r = philox4x32({{uint32_t(n), uint32_t(n >> 32), 0, 0}}, 0xa4093822u, 0x299f31d0u);
  for (uint64_t w = 0; w < 4; ++w) CHECK(dropout_bits(key, 4 * n + w) == r.w[w] >> 8);
}

TEST_CASE("dropout_threshold is ceil(p · 2^24)", "[philox]") {
  CHECK(dropout_threshold(0.0) == 0u);               // everything kept
  CHECK(dropout_threshold(0.5) == (1u << 23));       // exactly half the 2^24 values
  CHECK(dropout_threshold(1.0) == (1u << 24));       // nothing reaches it: all dropped
  CHECK(dropout_threshold(0.1) == 1677722u);         // 1677721.6 rounded up
  CHECK(dropout_threshold(0x1p-24) == 1u);
}
