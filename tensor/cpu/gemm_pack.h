// The fast GEMM's register blocking (the micro-tile MR x NR and the cache blocks KC, MC, NC)
// and the packing of its operands into the order the micro-kernel reads them. Only
// tensor/cpu/gemm.cpp and its tests include this; tests/tensor/cpu/test_gemm_pack.cpp checks
// every packing routine against the layout written out element by element.
#pragma once

#include "tensor/cpu/cpu_isa.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__AVX__)
#include "tensor/cpu/x86_intrinsics.h"
#endif

namespace attic::cpu::ATTIC_CPU_ISA::gemm_detail {

// ---- SIMD registers of the build target (ATTIC_NATIVE=OFF on x86-64 lands in the last
// branch).
#if defined(__AVX512F__)
constexpr int kVecBytes = 64;  // zmm
constexpr int kVecRegs = 32;
#elif defined(__AVX__)
constexpr int kVecBytes = 32;  // ymm
constexpr int kVecRegs = 16;
#elif defined(__aarch64__)
constexpr int kVecBytes = 16;  // NEON q registers, v0-v31; scalar floats live in them too
constexpr int kVecRegs = 32;
#else
constexpr int kVecBytes = 16;  // xmm (SSE2), or a 128-bit register elsewhere
constexpr int kVecRegs = 16;
#endif

// ---- Blocking. Sizes are for a core with 48 KiB of L1d and 2 MiB of L2; float and double
// blocks take the same bytes per level.
//
// Two tile families, named by NV, the vectors a row of the micro-tile holds: the default
// (14 x 32 floats on AVX-512), and with 32 vector registers on x86 the wide one, NV = 3
// (8 x 48), which gemm takes for float products whose N is a multiple of 48 and at least 384.
// The wide tile issues 11 loads for 24 FMAs a k step, the default 16 for 28, which pays
// only where N has many strips of 48: not where 48 does not divide N or N / 48 strips are
// too few (N = 64 or 128: attention's P v, the C = 128 GPT's products).
#if defined(__aarch64__)
constexpr int kDefaultNV = 4;
constexpr int kWideNV = 0;  // none
#else
constexpr int kDefaultNV = 2;
constexpr int kWideNV = kVecRegs >= 32 ? 3 : 0;
#endif

template <class T, int NV = kDefaultNV>
struct Blocking {
  typedef T Vec __attribute__((vector_size(kVecBytes)));
  static constexpr int kLanes = kVecBytes / int(sizeof(T));

  // Micro-tile MR x NR. A row of the tile is kNV vectors; the register budget per k step is
  // MR * kNV accumulators + kNV loaded B vectors + 1 broadcast A value:
  //   32 registers (AVX-512): 14 * 2 + 2 + 1 = 31, wide 8 * 3 + 3 + 1 = 28;
  //   16 registers: 6 * 2 + 2 + 1 = 15.
  // Each k step does MR * kNV FMAs for kNV loads + MR broadcasts, enough to keep both FMA
  // ports busy rather than the load ports.
  // AArch64 is budgeted differently: an FMA there takes its A value from a lane of a
  // register (fmla v.4s, v.4s, v.s[0]), and GCC loads all MR A values of a step ahead, each
  // into a register of its own, so the budget is MR * kNV + kNV + MR. 5 x 16 takes
  // 20 + 4 + 5 = 29 of the 32; 14 x 8 (AVX-512's shape) or 8 x 12 would need 44 or 35, and
  // GCC 12 then spills accumulators to the stack inside the k loop (seen in its assembly).
  // NR = 16, not 12: the GPT's N (head size 64, C = 128 ... 768) are multiples of 16, so no
  // strip is padded and B can be read in place (see b_in_place).
  static constexpr int kNV = NV;
#if defined(__aarch64__)
  static constexpr int MR = 5;
  static_assert(NV == 4 && MR * kNV + kNV + MR <= kVecRegs);
#else
  static constexpr int MR = NV == 3 ? 8 : kVecRegs >= 32 ? 14 : 6;
  static_assert((NV == 2 || NV == 3) && MR * kNV + kNV + 1 <= kVecRegs);
#endif
  static constexpr int NR = kNV * kLanes;

  // KC: a B strip [KC, NR] stays in L1 while every A strip of the block streams past it:
  // KC * NR * sizeof(T) = 256 * kNV * kVecBytes = 32 KiB of the 48 KiB L1 with AVX-512
  // (all 48 with the wide tile, where 192 measured no faster; 16 KiB with AVX2 and NEON,
  // whose L1 is 64 KiB or more, 8 KiB with SSE); the A strip [MR, KC] (MR KiB of float: 14
  // with AVX-512) comes from L2. A long KC also spreads the C tile's load and store over
  // more FMAs. KC = 192 and 384 measured the same within noise.
  static constexpr int64_t KC = 256;
  static constexpr int64_t KC_kmajor = 192;  // for a k-major A read in place (gemm_blocked)
  // MC: the packed A block [MC, KC] stays in L2 while the jr loop sweeps it NC / NR times;
  // give it about half of L2 (1 MiB), rounded to whole strips. (gemm_blocked lowers it when
  // the C rows the block writes are wide: see there.)
  static constexpr int64_t MC = (1024 * 1024) / (KC * int64_t(sizeof(T))) / MR * MR;
  // NC: the packed B panel [KC, NC] is swept once per A block, so it should stay in L2:
  // 1 MiB, 1024 float columns (a panel sized for L3 loses on products with wide N).
  static constexpr int64_t NC = (1024 * 1024) / (KC * int64_t(sizeof(T))) / NR * NR;

  // A row-major A read in place (gemm_blocked) has no packing whose cost grows with KC, so
  // for K over KC it takes a longer KC and a narrower B panel than the blocks above: K up to
  // 768 in one block, so that C is loaded and stored once instead of once per 256 k; a B
  // panel of 512 float columns (1.5 MiB, most of L2); the A block and the C rows it writes
  // held to 256 KiB. A k-major A in place wants a shorter KC instead (KC_kmajor) and keeps
  // the blocks above.
  static constexpr int64_t KC_rows_in_place = 768;
  static constexpr int64_t NC_rows_in_place =
      (1536 * 1024) / (KC_rows_in_place * int64_t(sizeof(T))) / NR * NR;
};

// Packed A strips come in two layouts, so that packing is a unit-stride copy whichever way
// A lies in memory (packing cost matters: at K = 128 a packed A element is used only N / NR
// times, as few as 4 in the GPT's shapes):
//   k-major   Ap[s][k][i]   for A stored column-major (rsa == 1, e.g. the dYᵀ of dW = dYᵀ X);
//   row-major Ap[s][i][k]   for everything else (csa == 1 is the usual case), each row at a
//                           fixed pitch, so the micro-kernel reaches row i at a constant
//                           offset i * kPitch from one pointer. The pitch is KC plus one
//                           cache line of padding, so the 14 rows do not all map to the same
//                           few L1 sets.
template <class T>
constexpr int64_t kPitch = Blocking<T>::KC + 64 / int64_t(sizeof(T));

// A [mc, kc] (strides rsa, csa) -> Ap in strips of MR rows (zero rows past mc), k-major.
template <class T, int NV = kDefaultNV>
void pack_a_kmajor(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap) {
  constexpr int MR = Blocking<T, NV>::MR;
  for (int64_t i0 = 0; i0 < mc; i0 += MR, Ap += MR * kc) {
    const int64_t m = std::min<int64_t>(MR, mc - i0);
    const T* a = A + i0 * rsa;
    for (int64_t k = 0; k < kc; ++k) {
      T* d = Ap + k * MR;
      const T* src = a + k * csa;
      if (m == MR && rsa == 1)  // the usual case: MR contiguous values; a memcpy of constant
        std::memcpy(d, src, sizeof(T) * MR);  // size compiles to a few vector moves
      else
        for (int64_t i = 0; i < MR; ++i) d[i] = i < m ? src[i * rsa] : T(0);
    }
  }
}

// The same, row-major: Ap[s][i][k] = A(s * MR + i, k), rows kPitch apart.
template <class T, int NV = kDefaultNV>
void pack_a_rows(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap) {
  constexpr int MR = Blocking<T, NV>::MR;
  for (int64_t i0 = 0; i0 < mc; i0 += MR, Ap += MR * kPitch<T>) {
    const int64_t m = std::min<int64_t>(MR, mc - i0);
    for (int64_t i = 0; i < MR; ++i) {
      T* d = Ap + i * kPitch<T>;
      const T* a = A + (i0 + i) * rsa;
      // Loops, not memcpy: GCC expands a memcpy of unknown size into `rep movsq`, whose
      // start-up cost dominates copies of a few hundred bytes.
      if (i >= m)
        for (int64_t k = 0; k < kc; ++k) d[k] = T(0);
      else if (csa == 1)
        for (int64_t k = 0; k < kc; ++k) d[k] = a[k];
      else
        for (int64_t k = 0; k < kc; ++k) d[k] = a[k * csa];
    }
  }
}

#if defined(__AVX512F__)
// r[0..15]: a 16 x 16 float block, one row per register -> its transpose, in four rounds
// of shuffles (log2 16), each round swapping ever larger sub-blocks:
//   unpack lo/hi   pairs of rows interleave single floats      -> 2 x 2 blocks done
//   shuffle_ps     pairs of those interleave float pairs       -> 4 x 4 blocks done
//   shuffle_f32x4  twice, moving 128-bit lanes between rows     -> 16 x 16 done
// After the second round u[4g + c] holds rows 4g..4g+3 at columns c, c+4, c+8, c+12, one
// column per 128-bit lane; the lane shuffles gather each column's four lanes.
inline void transpose16x16(__m512 r[16]) {
  __m512 t[16], u[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int g = 0; g < 4; ++g) {
    u[4 * g + 0] = _mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0x44);
    u[4 * g + 1] = _mm512_shuffle_ps(t[4 * g], t[4 * g + 2], 0xEE);
    u[4 * g + 2] = _mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0x44);
    u[4 * g + 3] = _mm512_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0xEE);
  }
  for (int c = 0; c < 4; ++c) {
    // 0x88 takes lanes 0, 2 of each source; 0xDD takes lanes 1, 3.
    const __m512 lo = _mm512_shuffle_f32x4(u[c], u[4 + c], 0x88);       // rows 0-7: c, c+8
    const __m512 lo2 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0xDD);      // rows 0-7: c+4, c+12
    const __m512 hi = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0x88);  // rows 8-15
    const __m512 hi2 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0xDD);
    r[c] = _mm512_shuffle_f32x4(lo, hi, 0x88);
    r[c + 8] = _mm512_shuffle_f32x4(lo, hi, 0xDD);
    r[c + 4] = _mm512_shuffle_f32x4(lo2, hi2, 0x88);
    r[c + 12] = _mm512_shuffle_f32x4(lo2, hi2, 0xDD);
  }
}

// A full strip of a transposed B (B(k, j) = b[j * csb + k], as x Wᵀ reads W) for k < kc16,
// a multiple of 16: 16 x 16 blocks are loaded along k, transposed in registers and stored
// along j. The scalar loop it replaces moves one float per load and store.
template <int NV>
void pack_b_transposed(int64_t kc16, const float* b, int64_t csb, float* Bp) {
  constexpr int NR = Blocking<float, NV>::NR;
  for (int64_t k0 = 0; k0 < kc16; k0 += 16)
    for (int h = 0; h < NR; h += 16) {
      __m512 r[16];
      for (int j = 0; j < 16; ++j) r[j] = _mm512_loadu_ps(b + (h + j) * csb + k0);
      transpose16x16(r);
      for (int k = 0; k < 16; ++k) _mm512_storeu_ps(Bp + (k0 + k) * NR + h, r[k]);
    }
}
#elif defined(__AVX__)
// r[0..7]: an 8 x 8 float block, one row per register -> its transpose, in three rounds of
// shuffles (log2 8), as transpose16x16 above: unpack lo/hi interleave single floats, shuffle_ps
// float pairs, and permute2f128 swaps the 128-bit halves between rows i and i + 4.
inline void transpose8x8(__m256 r[8]) {
  __m256 t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int g = 0; g < 2; ++g) {
    u[4 * g + 0] = _mm256_shuffle_ps(t[4 * g], t[4 * g + 2], 0x44);
    u[4 * g + 1] = _mm256_shuffle_ps(t[4 * g], t[4 * g + 2], 0xEE);
    u[4 * g + 2] = _mm256_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0x44);
    u[4 * g + 3] = _mm256_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0xEE);
  }
  // u[c] holds rows 0-3 at columns c (low half) and c + 4 (high half); u[4 + c] rows 4-7.
  for (int c = 0; c < 4; ++c) {
    r[c] = _mm256_permute2f128_ps(u[c], u[4 + c], 0x20);
    r[c + 4] = _mm256_permute2f128_ps(u[c], u[4 + c], 0x31);
  }
}

// pack_b_transposed for 256-bit registers: 8 x 8 blocks, kc8 a multiple of 8.
template <int NV>
void pack_b_transposed(int64_t kc8, const float* b, int64_t csb, float* Bp) {
  constexpr int NR = Blocking<float, NV>::NR;
  for (int64_t k0 = 0; k0 < kc8; k0 += 8)
    for (int h = 0; h < NR; h += 8) {
      __m256 r[8];
      for (int j = 0; j < 8; ++j) r[j] = _mm256_loadu_ps(b + (h + j) * csb + k0);
      transpose8x8(r);
      for (int k = 0; k < 8; ++k) _mm256_storeu_ps(Bp + (k0 + k) * NR + h, r[k]);
    }
}
#endif

// B [kc, nc] (strides rsb, csb) -> Bp: strips of NR columns, each stored k-major:
// Bp[s][k][j] = B(k, s * NR + j), zero for columns past nc.
template <class T, int NV = kDefaultNV>
void pack_b(int64_t kc, int64_t nc, const T* B, int64_t rsb, int64_t csb, T* Bp) {
  constexpr int NR = Blocking<T, NV>::NR;
  for (int64_t j0 = 0; j0 < nc; j0 += NR, Bp += NR * kc) {
    const int64_t n = std::min<int64_t>(NR, nc - j0);
    const T* b = B + j0 * csb;
    int64_t k = 0;
#if defined(__AVX512F__) || defined(__AVX__)
    if constexpr (std::is_same_v<T, float>) {
      constexpr int64_t kBlock = kVecBytes / 4;  // the transpose's block: 16, or 8 floats
      if (rsb == 1 && csb != 1 && n == NR) {
        k = kc / kBlock * kBlock;
        pack_b_transposed<NV>(k, b, csb, Bp);
      }
    }
#endif
    for (; k < kc; ++k) {
      T* d = Bp + k * NR;
      if (csb == 1 && n == NR)  // a full row of a row-major strip: constant-size, vector moves
        std::memcpy(d, b + k * rsb, sizeof(T) * NR);
      else if (csb == 1)
        for (int64_t j = 0; j < n; ++j) d[j] = b[k * rsb + j];
      else
        for (int64_t j = 0; j < n; ++j) d[j] = b[k * rsb + j * csb];
      for (int64_t j = n; j < NR; ++j) d[j] = T(0);
    }
  }
}

}  // namespace attic::cpu::ATTIC_CPU_ISA::gemm_detail
