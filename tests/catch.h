// Catch2, version 2 or 3: every test file and every exercise check includes this header and
// never Catch2's own, so that this file (with cmake/catch2.cmake, which finds either version
// and defines ATTIC_CATCH2_MAJOR) is the only place that knows how they differ:
//   - v2 is one header, catch2/catch.hpp; v3 has a header per part;
//   - v3 moved Approx into namespace Catch (v2 also puts it in the global namespace);
//   - v3 calls the substring matcher ContainsSubstring (v2: Contains, a name v3 gives to
//     the range matcher); the tests use v3's name, which v2 gets below;
//   - v2 compiles its runner in the one file that defines CATCH_CONFIG_RUNNER, while v3's
//     runner is in its library; tests/main.cpp defines ATTIC_CATCH2_RUNNER and main.
// Both versions register test cases, SECTIONs and GENERATE, and report, alike.
#pragma once

#if ATTIC_CATCH2_MAJOR == 3

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <catch2/matchers/catch_matchers_vector.hpp>
#ifdef ATTIC_CATCH2_RUNNER
#include <catch2/catch_session.hpp>
#endif

using Catch::Approx;

#elif ATTIC_CATCH2_MAJOR == 2

#ifdef ATTIC_CATCH2_RUNNER
#define CATCH_CONFIG_RUNNER
#endif
#include <catch2/catch.hpp>

#include <string>

namespace Catch::Matchers {
// Catch2 v3's name for v2's substring matcher.
inline StdString::ContainsMatcher ContainsSubstring(
    const std::string& text, CaseSensitive::Choice cs = CaseSensitive::Yes) {
  return Contains(text, cs);
}
}  // namespace Catch::Matchers

#else
#error "ATTIC_CATCH2_MAJOR must be 2 or 3: link the attic_catch2 target (cmake/catch2.cmake)"
#endif
