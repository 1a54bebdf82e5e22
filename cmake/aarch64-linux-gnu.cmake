# Cross-compiles attic for 64-bit ARM Linux (Raspberry Pi 4 and 5, AWS Graviton, Linux on
# Apple Silicon) from an x86-64 Debian or Ubuntu, and runs every test under qemu:
#   apt-get install g++-aarch64-linux-gnu qemu-user
#   cmake -S . -B build-arm -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-arm && ctest --test-dir build-arm
# (`make test-arm` does all of it.) On an ARM machine itself no toolchain file is needed:
# the ordinary build is already native there.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Every program the build or ctest runs (catch_discover_tests listing a test program's
# cases, the tutorials' examples, the `attic` command under the CLI tests) goes through
# this. -L: where qemu finds the target's dynamic loader, libc and libstdc++.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)

# Libraries and headers come from the target's tree only; programs (cmake, the host's tools)
# from the host. Catch2 comes from the target's tree (or CATCH2_PREFIX), or else the host's
# Catch2 v2, which is header-only and the same on every target (cmake/catch2.cmake).
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
