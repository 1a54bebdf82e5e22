// The bf16 GEMM's packing of float32 operands with AVX-512 (tensor/cpu/gemm_bf16.cpp): float32
// values rounded to bfloat16 16 at a time, as float_to_bfloat16_bits rounds them one at a time
// (tensor/half.h), and the pair words of the packed strips made 16 at a time. Included by
// gemm_bf16.cpp alone, which runs these only where the CPU has AVX-512 (its avx512_bf16 and
// amx_bf16 paths); they are compiled for it whatever the build targets.
#pragma once

#include <algorithm>
#include <cstdint>

#include "tensor/cpu/x86_intrinsics.h"

#define ATTIC_BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16")))

namespace attic::cpu::bf16_avx512 {

// 16 float32 bit patterns u rounded to bfloat16 as float_to_bfloat16_bits rounds them: the
// integer form of round to nearest even (add 0x7FFF plus the kept half's lowest bit, keep the high half), NaN
// to 0xFFFF; each lane's low 16 bits kept (vpmovdw).
ATTIC_BF16_TARGET inline __m256i rounded_16(__m512i u) {
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(u, 16), _mm512_set1_epi32(1));
  const __m512i r =
      _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7FFF))), 16);
  const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, _mm512_set1_epi32(0x7FFFFFFF)),
                                                _mm512_set1_epi32(0x7F800000));
  return _mm512_cvtepi32_epi16(_mm512_mask_mov_epi32(r, nan, _mm512_set1_epi32(0xFFFF)));
}

// 32 floats from p (n of them, n <= 32, the rest read as 0) rounded to bfloat16, in order.
ATTIC_BF16_TARGET inline __m512bh rounded_32(const float* p, int64_t n) {
  const __mmask16 m0 = n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
  const __mmask16 m1 = n >= 32 ? __mmask16(0xFFFF) : n > 16 ? __mmask16((1u << (n - 16)) - 1) : 0;
  const __m256i lo = rounded_16(_mm512_castps_si512(_mm512_maskz_loadu_ps(m0, p)));
  const __m256i hi = rounded_16(_mm512_castps_si512(_mm512_maskz_loadu_ps(m1, p + 16)));
  return (__m512bh)_mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

// Float operands are packed 16 words at a time (AVX-512): the rounding above on each 16
// floats, and where the words must change direction (a column-major A into row strips, a
// transposed B into pair rows), a transpose of 16 x 16 words in registers. gemm_bf16.cpp's
// scalar loops pack everything else (bfloat16 operands, strided ones, other CPUs) into the same
// layout.

// The mask of the first n of 16 lanes (n may be below 0 or above 16).
inline __mmask16 first(int64_t n) {
  return n >= 16 ? __mmask16(0xFFFF) : n <= 0 ? __mmask16(0) : __mmask16((1u << n) - 1);
}

// 16 pair words from lanes of two float rows under mask k (the rest 0); hi null: all 0.
//   word[l] = bits(lo[l]) | bits(hi[l]) << 16
ATTIC_BF16_TARGET inline __m512i pair_words(const float* lo, const float* hi, __mmask16 k) {
  const __m512i l = _mm512_cvtepu16_epi32(rounded_16(_mm512_castps_si512(_mm512_maskz_loadu_ps(k, lo))));
  if (hi == nullptr) return l;
  const __m512i h = _mm512_cvtepu16_epi32(rounded_16(_mm512_castps_si512(_mm512_maskz_loadu_ps(k, hi))));
  return _mm512_or_si512(l, _mm512_slli_epi32(h, 16));
}

// 16 pair words of one contiguous row of n floats from x (n may be 0 or less: all 0).
ATTIC_BF16_TARGET inline __m512i row_words(const float* x, int64_t n) {
  return n <= 0 ? _mm512_setzero_si512() : (__m512i)rounded_32(x, std::min<int64_t>(n, 32));
}

// r[i][j] -> r[j][i] for 16 rows of 16 words: pairs of rows interleaved by 32, then 64 bits,
// then 128-bit lanes twice.
ATTIC_BF16_TARGET inline void transpose_16x16(__m512i r[16]) {
  __m512i t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4) {
    r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
    r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
    r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
    r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  for (int i = 0; i < 16; i += 8)
    for (int j = 0; j < 4; ++j) {
      t[i + j] = _mm512_shuffle_i32x4(r[i + j], r[i + j + 4], 0x88);
      t[i + j + 4] = _mm512_shuffle_i32x4(r[i + j], r[i + j + 4], 0xdd);
    }
  for (int j = 0; j < 8; ++j) {
    r[j] = _mm512_shuffle_i32x4(t[j], t[j + 8], 0x88);
    r[j + 8] = _mm512_shuffle_i32x4(t[j], t[j + 8], 0xdd);
  }
}

// A row-major strip of Rows rows (n of them real) from a row-major A (csa == 1): each row's
// floats rounded in order are its pairs, 16 words per step, zeros from kc on up to kpad.
template <int Rows>
ATTIC_BF16_TARGET inline void pack_rows_vec(int64_t n, int64_t kc, int64_t kpad, const float* a,
                                     int64_t rsa, int64_t pitch, uint32_t* out) {
  for (int64_t i = 0; i < Rows; ++i)
    for (int64_t p = 0; p < kpad; p += 16)
      _mm512_store_si512(out + i * pitch + p, i < n ? row_words(a + i * rsa + 2 * p, kc - 2 * p)
                                                    : _mm512_setzero_si512());
}

// The same strip from a column-major A (rsa == 1): for 16 rows, 16 pairs are made down A's
// columns (one word per row), then turned into 16 words per row.
template <int Rows>
ATTIC_BF16_TARGET inline void pack_columns_vec(int64_t n, int64_t kc, int64_t kpad, const float* a,
                                        int64_t csa, int64_t pitch, uint32_t* out) {
  for (int64_t i0 = 0; i0 < Rows; i0 += 16) {
    const __mmask16 rows = first(n - i0);
    for (int64_t p0 = 0; p0 < kpad; p0 += 16) {
      __m512i w[16];
      for (int64_t q = 0; q < 16; ++q) {
        const int64_t k = 2 * (p0 + q);
        w[q] = k < kc ? pair_words(a + i0 + k * csa, k + 1 < kc ? a + i0 + (k + 1) * csa : nullptr, rows)
                      : _mm512_setzero_si512();
      }
      transpose_16x16(w);
      for (int64_t i = 0; i < std::min<int64_t>(16, Rows - i0); ++i)
        _mm512_store_si512(out + (i0 + i) * pitch + p0, w[i]);
    }
  }
}

// A B strip of NR columns (cols of them real), kpad pair rows, from a row-major B (csb == 1):
// pair p's words are rows 2p and 2p + 1 side by side.
template <int NR>
ATTIC_BF16_TARGET inline void pack_b_rows_vec(int64_t kc, int64_t cols, int64_t kpad, const float* b,
                                       int64_t rsb, uint32_t* out) {
  for (int64_t p = 0; p < kpad; ++p)
    for (int64_t j0 = 0; j0 < NR; j0 += 16) {
      const int64_t k = 2 * p;
      const __m512i w = k < kc ? pair_words(b + k * rsb + j0, k + 1 < kc ? b + (k + 1) * rsb + j0 : nullptr,
                                            first(cols - j0))
                               : _mm512_setzero_si512();
      _mm512_store_si512(out + p * NR + j0, w);
    }
}

// The same strip from a B whose columns are contiguous (rsb == 1: Wᵀ): 16 pairs of each of 16
// columns, turned into 16 pair rows of 16 columns.
template <int NR>
ATTIC_BF16_TARGET inline void pack_b_columns_vec(int64_t kc, int64_t cols, int64_t kpad, const float* b,
                                          int64_t csb, uint32_t* out) {
  for (int64_t j0 = 0; j0 < NR; j0 += 16)
    for (int64_t p0 = 0; p0 < kpad; p0 += 16) {
      __m512i w[16];
      for (int64_t j = 0; j < 16; ++j)
        w[j] = j0 + j < cols ? row_words(b + (j0 + j) * csb + 2 * p0, kc - 2 * p0) : _mm512_setzero_si512();
      transpose_16x16(w);
      for (int64_t q = 0; q < std::min<int64_t>(16, kpad - p0); ++q)
        _mm512_store_si512(out + (p0 + q) * NR + j0, w[q]);
    }
}

}  // namespace attic::cpu::bf16_avx512
