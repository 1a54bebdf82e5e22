// util/fnv1a.h: FNV-1a 64 against the reference values of its authors (Fowler, Noll, Vo),
// and fed in pieces or at once alike.
#include <string>

#include "tests/catch.h"

#include "util/fnv1a.h"

using namespace attic;

namespace {
// FNV-1a 64 of s, as 16 hex digits.
std::string fnv(const std::string& s) {
  util::Fnv1a h;
  h.update(s.data(), s.size());
  return util::hex16(h.value());
}
}  // namespace

TEST_CASE("fnv1a: the reference values of FNV-1a 64", "[util]") {
  // From the test vectors of Noll's reference code (test_fnv.c).
  CHECK(fnv("") == "cbf29ce484222325");
  CHECK(fnv("a") == "af63dc4c8601ec8c");
  CHECK(fnv("foobar") == "85944171f73967e8");
}

TEST_CASE("fnv1a: updates in pieces equal one update over the whole", "[util]") {
  util::Fnv1a h;
  h.update("foo", 3);
  h.update("bar", 3);
  CHECK(util::hex16(h.value()) == fnv("foobar"));
  CHECK(util::hex16(0) == "0000000000000000");
  CHECK(util::hex16(0xabcULL) == "0000000000000abc");
}
