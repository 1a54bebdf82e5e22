// ATTIC_ASAN is defined when the build runs under AddressSanitizer. GCC says so with the
// macro __SANITIZE_ADDRESS__; clang (up to version 14 at least) defines no macro and answers
// __has_feature(address_sanitizer) instead, so both are asked.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define ATTIC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTIC_ASAN 1
#endif
#endif
