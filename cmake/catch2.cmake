# Catch2 v2 for the tests and the exercises: the target Catch2::Catch2 (the header
# catch2/catch.hpp) and catch_discover_tests (the Catch module), from Catch2's own package.
#
# Cross-compiling (cmake/aarch64-linux-gnu.cmake), find_package looks for packages in the
# target's tree only, and no one installs a header-only test library there. Catch2 v2 is one
# header, the same for every target, so the host's package is taken instead. Its include
# folder is the host's /usr/include, whose C library headers must not come before the
# target's own; so the header alone is copied into the build folder and included from there.
# catch_discover_tests runs each test program to list its cases; it does so through the
# toolchain's CMAKE_CROSSCOMPILING_EMULATOR (qemu), which every target inherits.
if(TARGET Catch2::Catch2)
  return()
endif()
if(NOT CMAKE_CROSSCOMPILING)
  find_package(Catch2 2 REQUIRED)
  return()
endif()
find_package(Catch2 2 REQUIRED NO_CMAKE_FIND_ROOT_PATH)
get_target_property(attic_catch2_include Catch2::Catch2 INTERFACE_INCLUDE_DIRECTORIES)
find_file(ATTIC_CATCH2_HEADER catch2/catch.hpp PATHS ${attic_catch2_include}
          NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH REQUIRED)
file(COPY ${ATTIC_CATCH2_HEADER} DESTINATION ${PROJECT_BINARY_DIR}/catch2-header/catch2)
set_target_properties(Catch2::Catch2 PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES ${PROJECT_BINARY_DIR}/catch2-header)
