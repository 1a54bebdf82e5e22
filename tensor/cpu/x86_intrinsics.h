// <immintrin.h>, the x86 SIMD intrinsics, for the kernels that use them (include it only on
// x86). GCC 12 flags the intrinsics' own _mm512_undefined_ps() as "may be used
// uninitialized", or at -O1 (the sanitizer build) "is used uninitialized" (a known false
// positive); the warning points into this header, so both are silenced around it.
// Clang defines __GNUC__ too, but has no such warning (nor the false positive), and would
// reject the unknown name under -Werror.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
