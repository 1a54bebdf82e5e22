# Catch2 for the tests and the exercises, version 2 (2.13: one header, catch2/catch.hpp) or
# version 3 (3.x: a static library with a header per part), whichever the machine has.
# It defines the target attic_catch2, which every test program and exercise check links:
# Catch2's own Catch2::Catch2 (v3: the library without its main; tests/main.cpp has one)
# plus ATTIC_CATCH2_MAJOR=2 or 3, which tests/catch.h reads to include the right headers.
# catch_discover_tests comes from Catch2's own package (its Catch module) in both versions;
# ATTIC_CATCH2_MATCH_ARGS is the flag it passes so that a name matching no test fails.
#
# CATCH2_PREFIX=DIR takes the Catch2 installed under DIR (`cmake --install ... --prefix DIR`)
# and no other, e.g. a v3 beside the system's v2: `make test CATCH2_PREFIX=DIR`.
#
# Cross-compiling (cmake/aarch64-linux-gnu.cmake), find_package looks in the target's tree
# only. A Catch2 built for the target there (or under CATCH2_PREFIX) is used as it is.
# Failing that, the host's Catch2 v2 will do, since it is one header, the same for every
# target; its include folder is the host's /usr/include, whose C library headers must not
# come before the target's own, so the header alone is copied into the build folder. (The
# host's v3 is a compiled library for the host, which no target can link.)
# catch_discover_tests runs each test program to list its cases; it does so through the
# toolchain's CMAKE_CROSSCOMPILING_EMULATOR (qemu), which every target inherits.
# Included once, from the top-level CMakeLists.txt, so that Catch2's imported targets are
# seen in tests/ and exercises/ alike.
set(CATCH2_PREFIX "" CACHE PATH "Use the Catch2 (v2 or v3) installed under this prefix only")
set(attic_catch2_hint "install your distribution's Catch2 package (scripts/install-deps.sh \
names it: catch2 on Debian, Ubuntu, Arch and Homebrew, catch-devel on Fedora), or pass \
-DCATCH2_PREFIX=DIR for one installed under DIR")

# A changed CATCH2_PREFIX must not find the Catch2 of the last configure again.
if(NOT "${CATCH2_PREFIX}" STREQUAL "${ATTIC_CATCH2_PREFIX_SEEN}")
  unset(Catch2_DIR CACHE)
endif()
set(ATTIC_CATCH2_PREFIX_SEEN "${CATCH2_PREFIX}" CACHE INTERNAL "")

if(CATCH2_PREFIX)
  # Catch2's config file lies under lib/cmake/Catch2 (v3), lib/cmake/Catch2 or
  # share/Catch2 (v2, by version); PATHS with NO_DEFAULT_PATH looks in those and nowhere else.
  find_package(Catch2 PATHS ${CATCH2_PREFIX} NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT Catch2_FOUND)
    message(FATAL_ERROR "CATCH2_PREFIX=${CATCH2_PREFIX} holds no Catch2 package \
(no Catch2Config.cmake under lib/cmake/Catch2 or share/Catch2)")
  endif()
else()
  # No version in the call: v3's package declares itself incompatible with a request for 2,
  # and v2's with one for 3, so the major version is checked below instead.
  find_package(Catch2 QUIET)
  if(NOT Catch2_FOUND AND CMAKE_CROSSCOMPILING)
    find_package(Catch2 QUIET NO_CMAKE_FIND_ROOT_PATH)
    if(Catch2_FOUND AND NOT Catch2_VERSION_MAJOR EQUAL 2)
      message(FATAL_ERROR "cross-compiling for ${CMAKE_SYSTEM_PROCESSOR}, attic found only \
the host's Catch2 ${Catch2_VERSION}, a library built for the host; install Catch2 v2's header \
on the host (Debian 12's catch2), or build Catch2 v3 for the target and pass -DCATCH2_PREFIX=DIR")
    endif()
    set(attic_catch2_copy_header ON)
  endif()
  if(NOT Catch2_FOUND)
    message(FATAL_ERROR "attic's tests need Catch2 (v2 or v3), which CMake did not find: \
${attic_catch2_hint}; or configure with -DATTIC_TESTS=OFF to build without the tests")
  endif()
endif()

if(NOT Catch2_VERSION_MAJOR EQUAL 2 AND NOT Catch2_VERSION_MAJOR EQUAL 3)
  message(FATAL_ERROR "attic's tests build with Catch2 v2 or v3, not ${Catch2_VERSION} \
(found in ${Catch2_DIR})")
endif()
message(STATUS "attic: Catch2 ${Catch2_VERSION} (${Catch2_DIR})")

if(attic_catch2_copy_header)
  get_target_property(attic_catch2_include Catch2::Catch2 INTERFACE_INCLUDE_DIRECTORIES)
  find_file(ATTIC_CATCH2_HEADER catch2/catch.hpp PATHS ${attic_catch2_include}
            NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH REQUIRED)
  file(COPY ${ATTIC_CATCH2_HEADER} DESTINATION ${PROJECT_BINARY_DIR}/catch2-header/catch2)
  set_target_properties(Catch2::Catch2 PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES ${PROJECT_BINARY_DIR}/catch2-header)
endif()

# The flag that makes a test program fail when its test name matches no test case, rather
# than pass having run nothing: v2 calls the warning NoTests, v3 UnmatchedTestSpec.
if(Catch2_VERSION_MAJOR EQUAL 2)
  set(ATTIC_CATCH2_MATCH_ARGS -w NoTests)
else()
  set(ATTIC_CATCH2_MATCH_ARGS -w UnmatchedTestSpec)
endif()

add_library(attic_catch2 INTERFACE)
target_link_libraries(attic_catch2 INTERFACE Catch2::Catch2)
target_compile_definitions(attic_catch2 INTERFACE ATTIC_CATCH2_MAJOR=${Catch2_VERSION_MAJOR})
# "tests/catch.h" from the repository root, for the exercises' checks as for the tests.
target_include_directories(attic_catch2 INTERFACE ${PROJECT_SOURCE_DIR})
