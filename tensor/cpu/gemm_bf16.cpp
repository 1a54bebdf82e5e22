// The bf16 GEMM: the blocked loops of gemm.cpp (GotoBLAS / BLIS), on operands packed as
// bfloat16 pairs, with a micro-kernel built on AVX512_BF16's vdpbf16ps:
//
//   vdpbf16ps acc, a, b:   acc[l] += a[2l] b[2l] + a[2l+1] b[2l+1]     (l = 0 .. 15)
//
// (Intel's definition: each product is exact in float32, and the two are added to acc one
// after the other, the odd one first, each add rounded to nearest even; subnormal inputs read
// as zero and subnormal results are flushed to zero, so below 2^-126 this path and the
// convert path differ.)
//
// Each 32-bit lane of a and b holds two bfloat16 values of consecutive k, so one instruction
// does 32 multiply-adds where a float32 FMA does 16. The packing puts the pairs in place:
//
//   A strip (MR rows):    word [p][i]  = A(i, 2p) | A(i, 2p+1) << 16    one broadcast per row
//   B strip (NR columns): word [p][j]  = B(2p, j) | B(2p+1, j) << 16    two vectors per pair p
//
// and rounds float32 operands to bfloat16 as it copies them (the rounding of tensor/half.h),
// so an autocast product needs no bf16 copy of its operands. An odd K, and the rows and
// columns past a partial strip, are packed as zeros; the write-back of an edge tile is masked.
//
// Threads split C by row strips (or column strips when N has more of them), each packing its
// own operands, as gemm_tiled does; every element of C is summed in the same order whatever
// the thread count, so the bits do not depend on it.
//
// Where the CPU has AMX (the amx_bf16 level, tensor/cpu/cpu_features.h), the same packed
// pairs feed tdpbf16ps instead, which multiplies whole tiles (Intel's Architecture
// Instruction Set Extensions reference, "Intel AMX"):
//
//   tdpbf16ps c, a, b:   c[i][l] += Σ_p a[i][2p] b[p][2l] + a[i][2p+1] b[p][2l+1]
//                        c: 16 x 16 float32, a: 16 rows of 16 pairs, b: 16 pairs of 16 columns
//
// with the same rounding as vdpbf16ps. A row-major A strip's row i is a tile row of a (16
// consecutive pairs), and a B strip's pair p is a tile row of b, so both packings load into
// tiles as they are; a 32 x 32 block of C is 2 x 2 tiles of c over 2 tiles of a and 2 of b,
// the 8 tile registers, and each instruction does 8192 multiply-adds where vdpbf16ps does 32.
// The pairs are padded with zeros to a multiple of 16, a tile's depth.
//
// The fused attention's products (tensor/cpu/attention.cpp) pass causal attention's
// triangles (tensor/cpu/gemm_call.h), skipped as gemm.cpp skips them: tiles of C wholly above
// the diagonal (kLowerC), and the pairs of a strip's k range where A is zero (kLowerA,
// kUpperA; pair_range).
#include "tensor/cpu/gemm_bf16.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensor/cpu/cpu_features.h"
#include "tensor/cpu/gemm.h"
#include "tensor/cpu/thread_pool.h"
#include "tensor/error.h"

#if defined(__x86_64__)
#define ATTIC_HAVE_AVX512_BF16_KERNEL 1
// The kernel's functions are compiled for AVX512_BF16 (ATTIC_BF16_TARGET, from the packing's
// header) whatever the build targets, and run only where the CPU has it (bf16_path_available):
// one binary for every x86-64 CPU. And AMX's, run only at the amx_bf16 level, whose grant of
// the tile state cpu_level() asks for.
#define ATTIC_AMX_TARGET \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16,amx-tile,amx-bf16")))
#include "tensor/cpu/gemm_bf16_pack_avx512.h"  // ATTIC_BF16_TARGET, the vector packing
#elif defined(__aarch64__)
#define ATTIC_HAVE_NEON_BF16_KERNEL 1
// The same on AArch64: compiled for BF16 (an Armv8.6 feature that Armv8.2 cores may have, as
// arm_neon.h declares its intrinsics) whatever the build targets, run only where the CPU
// reports it (cpu_neon_bf16).
#define ATTIC_NEON_BF16_TARGET __attribute__((target("arch=armv8.2-a+bf16")))
#include <arm_neon.h>
#endif
#if !defined(ATTIC_HAVE_AVX512_BF16_KERNEL)
#define ATTIC_HAVE_AVX512_BF16_KERNEL 0
#endif
#if !defined(ATTIC_HAVE_NEON_BF16_KERNEL)
#define ATTIC_HAVE_NEON_BF16_KERNEL 0
#endif

namespace attic::cpu {
namespace {

#if ATTIC_HAVE_AVX512_BF16_KERNEL
using namespace bf16_avx512;
#endif

// Micro-tile MR x NR: MR rows of two zmm accumulators (16 float lanes each), 28 registers,
// beside the two B vectors and one broadcast A pair: 31 of AVX-512's 32.
constexpr int MR = 14;
constexpr int NR = 32;
// KC: a packed B strip [KC, NR] (KC * NR * 2 bytes = 32 KiB) stays in L1 while the A strips
// stream past it; the A block [MC, KC] and the B panel [KC, NC] take 1 MiB each of L2.
constexpr int64_t KC = 512;
constexpr int64_t MC = (1024 * 1024) / (KC * 2) / MR * MR;
constexpr int64_t NC = (1024 * 1024) / (KC * 2) / NR * NR;
// The AMX block of C: 2 x 2 tiles of 16 x 16, over pairs padded to a tile's depth of 16.
constexpr int kAmxMR = 32;
constexpr int64_t kAmxPairs = 16;
constexpr int64_t kAmxMC = (1024 * 1024) / (KC * 2) / kAmxMR * kAmxMR;
// A thread gets at least this many multiply-adds.
constexpr double kMinFmasPerThread = 1 << 20;

inline uint32_t bits(float x) { return float_to_bfloat16_bits(x); }
inline uint32_t bits(bfloat16 x) { return x.bits; }

// A packed block: its strips, and where pair p of the strip's row i lies (see pack_a).
struct PackedA {
  const uint32_t* a;  // the block's first strip
  bool rows;          // row-major strips (pair (i, p) at [i * pitch + p]), else [p * MR + i]
  int64_t pitch;      // words between rows of a row-major strip
  int64_t strip;      // words between strips
};

// The pitch of a row-major strip's rows for kp pairs: whole cache lines, plus one, so that the
// MR rows the micro-kernel reads side by side fall into different sets of L1 even when kp is a
// multiple of 1 KiB.
constexpr int64_t row_pitch(int64_t kp) { return (kp + 15) / 16 * 16 + 16; }


// A [mc, kc] -> strips of Rows rows, kp = ceil(kc / 2) pairs each, padded with zeros to
// kpad pairs. rows: row-major strips, as a row-major A (csa == 1) is always packed and AMX
// needs every A: a row's pairs are then its own elements as bfloat16, in order (pair p =
// elements 2p and 2p + 1), for a row-major A a unit-stride conversion, for a column-major one
// (the dYᵀ of dW = dYᵀ X) read down its columns. Otherwise A is packed pair by pair as the
// file comment draws it, the loops running down its columns when it is column-major, so that
// each line read is used whole.
template <int Rows, class TA>
PackedA pack_a(int64_t mc, int64_t kc, int64_t kpad, bool rows, const TA* A, int64_t rsa,
               int64_t csa, uint32_t* Ap) {
  const int64_t kp = (kc + 1) / 2;
  const int64_t pitch = row_pitch(kpad), strip = rows ? Rows * pitch : Rows * kp;
  for (int64_t s = 0; s < mc; s += Rows) {
    uint32_t* out = Ap + s / Rows * strip;
    const int64_t n = std::min<int64_t>(Rows, mc - s);
    const TA* a = A + s * rsa;
#if ATTIC_HAVE_AVX512_BF16_KERNEL
    if constexpr (std::is_same_v<TA, float>) {
      if (rows && csa == 1) {
        pack_rows_vec<Rows>(n, kc, kpad, a, rsa, pitch, out);
        continue;
      }
      if (rows && rsa == 1) {
        pack_columns_vec<Rows>(n, kc, kpad, a, csa, pitch, out);
        continue;
      }
    }
#endif
    if (rows && rsa == 1 && csa != 1) {
      for (int64_t p = 0; p < kc / 2; ++p)
        for (int64_t i = 0; i < n; ++i)
          out[i * pitch + p] = bits(a[i + 2 * p * csa]) | bits(a[i + (2 * p + 1) * csa]) << 16;
      for (int64_t i = 0; i < Rows; ++i)
        for (int64_t p = i < n ? kc / 2 : 0; p < kpad; ++p)
          out[i * pitch + p] = i < n && p < kp ? bits(a[i + (kc - 1) * csa]) : 0;  // odd K's last
      continue;
    }
    if (rows) {
      for (int64_t i = 0; i < Rows; ++i) {
        uint32_t* o = out + i * pitch;
        const TA* row = a + i * rsa;
        const int64_t full = i < n ? kc / 2 : 0;
        if (csa == 1)
          for (int64_t p = 0; p < full; ++p) o[p] = bits(row[2 * p]) | bits(row[2 * p + 1]) << 16;
        else
          for (int64_t p = 0; p < full; ++p)
            o[p] = bits(row[2 * p * csa]) | bits(row[(2 * p + 1) * csa]) << 16;
        for (int64_t p = full; p < kpad; ++p)  // odd K's last, then zeros
          o[p] = i < n && p < kp ? bits(row[(kc - 1) * csa]) : 0;
      }
      continue;
    }
    if (rsa == 1) {
      for (int64_t p = 0; p < kp; ++p) {
        const TA* lo = a + 2 * p * csa;
        const bool odd_end = 2 * p + 1 == kc;
        for (int64_t i = 0; i < n; ++i)
          out[p * Rows + i] = bits(lo[i]) | (odd_end ? 0u : bits(lo[csa + i]) << 16);
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        const TA* row = a + i * rsa;
        for (int64_t p = 0; p < kc / 2; ++p)
          out[p * Rows + i] = bits(row[2 * p * csa]) | bits(row[(2 * p + 1) * csa]) << 16;
        if (kc % 2) out[(kp - 1) * Rows + i] = bits(row[(kc - 1) * csa]);
      }
    }
    for (int64_t i = n; i < Rows; ++i)
      for (int64_t p = 0; p < kp; ++p) out[p * Rows + i] = 0;
  }
  return {Ap, rows, pitch, strip};
}

// B [kc, nc] -> strips of NR columns, kp pairs each, padded with zero pairs to kpad.
template <class TB>
void pack_b(int64_t kc, int64_t nc, int64_t kpad, const TB* B, int64_t rsb, int64_t csb,
            uint32_t* Bp) {
  const int64_t kp = (kc + 1) / 2;
  for (int64_t t = 0; t < nc; t += NR, Bp += kpad * NR) {
    const int64_t cols = std::min<int64_t>(NR, nc - t);
#if ATTIC_HAVE_AVX512_BF16_KERNEL
    if constexpr (std::is_same_v<TB, float>) {
      if (csb == 1) {
        pack_b_rows_vec<NR>(kc, cols, kpad, B + t, rsb, Bp);
        continue;
      }
      if (rsb == 1) {
        pack_b_columns_vec<NR>(kc, cols, kpad, B + t * csb, csb, Bp);
        continue;
      }
    }
#endif
    for (int64_t p = 0; p < kp; ++p) {
      const TB* b0 = B + 2 * p * rsb + t * csb;
      const bool odd_end = 2 * p + 1 == kc;
      uint32_t* out = Bp + p * NR;
      for (int64_t j = 0; j < cols; ++j)
        out[j] = bits(b0[j * csb]) | (odd_end ? 0u : bits(b0[rsb + j * csb]) << 16);
      for (int64_t j = cols; j < NR; ++j) out[j] = 0;
    }
    std::fill(Bp + kp * NR, Bp + kpad * NR, 0u);
  }
}

// A thread's packing buffer, 64-byte aligned, grown on need.
struct Buffer {
  uint32_t* p = nullptr;
  size_t cap = 0;
  ~Buffer() { release(); }
  uint32_t* get(size_t words) {
    if (words > cap) {
      release();
      p = static_cast<uint32_t*>(::operator new(words * 4, std::align_val_t(64)));
      cap = words;
    }
    return p;
  }
  void release() {
    if (p != nullptr) ::operator delete(p, std::align_val_t(64));
    p = nullptr;
    cap = 0;
  }
};
thread_local Buffer t_pack_a, t_pack_b;

#if ATTIC_HAVE_AVX512_BF16_KERNEL
// One row of a tile's sums, columns 0..15 in x0 and 16..31 in x1, written (or added) to C's
// row c, masked to the tile's n columns.
ATTIC_BF16_TARGET inline void store_row(float* c, __m512 x0, __m512 x1, int64_t n,
                                        bool accumulate) {
  const __mmask16 k0 = first(n), k1 = first(n - 16);
  if (accumulate) {
    x0 = _mm512_add_ps(x0, _mm512_maskz_loadu_ps(k0, c));
    x1 = _mm512_add_ps(x1, _mm512_maskz_loadu_ps(k1, c + 16));
  }
  _mm512_mask_storeu_ps(c, k0, x0);
  _mm512_mask_storeu_ps(c + 16, k1, x1);
}

// C tile [m, n] (m <= MR, n <= NR) (+)= A strip @ B strip over kp pairs:
//   acc[i][v] += Σ_p A pair (i, p) · B pair (p, v·16 .. v·16+15)
// RowsA: pair (i, p) of the strip at a[i * pitch + p], else at a[p * MR + i].
template <bool RowsA>
ATTIC_BF16_TARGET void micro_kernel(int64_t kp, const uint32_t* __restrict Ap, int64_t pitch,
                                    const uint32_t* __restrict Bp, float* C, int64_t ldc,
                                    int64_t m, int64_t n, bool accumulate) {
  const int64_t a_row = RowsA ? pitch : 1, a_step = RowsA ? 1 : MR;
  __m512 acc[MR][2];
#pragma GCC unroll 14
  for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < kp; ++p, Ap += a_step, Bp += NR) {
    const __m512bh b0 = (__m512bh)_mm512_load_si512(Bp);
    const __m512bh b1 = (__m512bh)_mm512_load_si512(Bp + 16);
#pragma GCC unroll 14
    for (int i = 0; i < MR; ++i) {
      const __m512bh a = (__m512bh)_mm512_set1_epi32(int(Ap[i * a_row]));
      acc[i][0] = _mm512_dpbf16_ps(acc[i][0], a, b0);
      acc[i][1] = _mm512_dpbf16_ps(acc[i][1], a, b1);
    }
  }
  for (int64_t i = 0; i < m; ++i) store_row(C + i * ldc, acc[i][0], acc[i][1], n, accumulate);
}
#endif

#if ATTIC_HAVE_AVX512_BF16_KERNEL
// AMX's tile configuration (palette 1): tiles 0-3 hold C's 2 x 2 blocks of 16 x 16 floats,
// 4-5 the A strip's two halves of 16 rows, 6-7 the B strip's two halves of 16 columns, each
// 16 rows of 64 bytes. It is a thread's state: each thread's share of a product loads it,
// and releases the tiles at the end (amx_release), so that no tile state is left to save.
struct TileConfig {
  uint8_t palette = 1, start_row = 0, reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

ATTIC_AMX_TARGET void amx_configure() {
  TileConfig config;
  for (int t = 0; t < 8; ++t) config.colsb[t] = 64, config.rows[t] = 16;
  _tile_loadconfig(&config);
}

ATTIC_AMX_TARGET void amx_release() { _tile_release(); }

// C block [m, n] (m <= 32, n <= 32) (+)= A strip @ B strip over kp pairs (a multiple of 16),
// the A strip row-major (pair (i, p) at a[i * pitch + p]):
//   c[I][J] += Σ over 16-pair steps of a[I] b[J]      (I, J = 0, 1: the 16-row and -column halves)
// The sums start from zero and C is added at the end, as micro_kernel adds it, so a block of C
// has the same bits whether or not it is an edge block.
ATTIC_AMX_TARGET void micro_kernel_amx(int64_t kp, const uint32_t* __restrict Ap, int64_t pitch,
                                       const uint32_t* __restrict Bp, float* C, int64_t ldc,
                                       int64_t m, int64_t n, bool accumulate) {
  const size_t a_stride = size_t(pitch) * 4, b_stride = NR * 4;  // bytes between tile rows
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  for (int64_t p = 0; p < kp; p += kAmxPairs) {
    _tile_loadd(4, Ap + p, a_stride);
    _tile_loadd(5, Ap + 16 * pitch + p, a_stride);
    _tile_loadd(6, Bp + p * NR, b_stride);
    _tile_loadd(7, Bp + p * NR + 16, b_stride);
    _tile_dpbf16ps(0, 4, 6);
    _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6);
    _tile_dpbf16ps(3, 5, 7);
  }
  const size_t c_stride = size_t(ldc) * 4;
  if (m == kAmxMR && n == NR && !accumulate) {
    _tile_stored(0, C, c_stride);
    _tile_stored(1, C + 16, c_stride);
    _tile_stored(2, C + 16 * ldc, c_stride);
    _tile_stored(3, C + 16 * ldc + 16, c_stride);
    return;
  }
  alignas(64) float t[kAmxMR][NR];  // the block, then its m x n corner added to C
  _tile_stored(0, &t[0][0], NR * 4);
  _tile_stored(1, &t[0][16], NR * 4);
  _tile_stored(2, &t[16][0], NR * 4);
  _tile_stored(3, &t[16][16], NR * 4);
  for (int64_t i = 0; i < m; ++i)
    store_row(C + i * ldc, _mm512_load_ps(&t[i][0]), _mm512_load_ps(&t[i][16]), n, accumulate);
}
#endif

#if ATTIC_HAVE_NEON_BF16_KERNEL
// The AArch64 form of micro_kernel, on the same packed strips: BFDOT (Armv8.6's BF16),
//   vbfdotq_f32(acc, a, b):   acc[l] += a[2l] b[2l] + a[2l+1] b[2l+1]     (l = 0 .. 3)
// is vdpbf16ps on 4 lanes, so each word of a strip is again one pair. NEON's 32 vector
// registers hold 14 rows of 8 columns (28 accumulators) beside two B vectors and one
// broadcast A pair, so the tile's 32 columns are made 8 at a time, each pass reading the A
// strip again from L1. (Arm defines BFDOT's rounding loosely: without FEAT_EBF16 it may flush
// subnormals and round the pair's sum to odd before adding it, so this path and the others
// agree to the order of float32's rounding, not bit for bit.)
template <bool RowsA>
ATTIC_NEON_BF16_TARGET void micro_kernel_neon(int64_t kp, const uint32_t* __restrict Ap,
                                              int64_t pitch, const uint32_t* __restrict Bp,
                                              float* C, int64_t ldc, int64_t m, int64_t n,
                                              bool accumulate) {
  const int64_t a_row = RowsA ? pitch : 1, a_step = RowsA ? 1 : MR;
  for (int64_t j0 = 0; j0 < n; j0 += 8) {
    float32x4_t acc[MR][2];
    for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = vdupq_n_f32(0.0f);
    const uint32_t* a = Ap;
    const uint32_t* b = Bp + j0;
    for (int64_t p = 0; p < kp; ++p, a += a_step, b += NR) {
      const bfloat16x8_t b0 = vreinterpretq_bf16_u32(vld1q_u32(b));
      const bfloat16x8_t b1 = vreinterpretq_bf16_u32(vld1q_u32(b + 4));
      for (int i = 0; i < MR; ++i) {
        const bfloat16x8_t ai = vreinterpretq_bf16_u32(vdupq_n_u32(a[i * a_row]));
        acc[i][0] = vbfdotq_f32(acc[i][0], ai, b0);
        acc[i][1] = vbfdotq_f32(acc[i][1], ai, b1);
      }
    }
    // Columns j0 .. j0 + 7 of each of the tile's m rows, up to its n.
    const int64_t cols = std::min<int64_t>(8, n - j0);
    for (int64_t i = 0; i < m; ++i) {
      float lane[8];
      vst1q_f32(lane, acc[i][0]);
      vst1q_f32(lane + 4, acc[i][1]);
      float* c = C + i * ldc + j0;
      for (int64_t j = 0; j < cols; ++j) c[j] = accumulate ? c[j] + lane[j] : lane[j];
    }
  }
}
#endif

#if ATTIC_HAVE_AVX512_BF16_KERNEL || ATTIC_HAVE_NEON_BF16_KERNEL
// The tile's product on this architecture's kernel.
template <bool RowsA>
#if ATTIC_HAVE_AVX512_BF16_KERNEL
ATTIC_BF16_TARGET
#endif
inline void micro(int64_t kp, const uint32_t* Ap, int64_t pitch, const uint32_t* Bp, float* C,
                  int64_t ldc, int64_t m, int64_t n, bool accumulate) {
#if ATTIC_HAVE_AVX512_BF16_KERNEL
  micro_kernel<RowsA>(kp, Ap, pitch, Bp, C, ldc, m, n, accumulate);
#else
  micro_kernel_neon<RowsA>(kp, Ap, pitch, Bp, C, ldc, m, n, accumulate);
#endif
}
#endif

#if ATTIC_HAVE_AVX512_BF16_KERNEL
// The product of one row, C[1, N] (+)= A[1, K] @ B[K, N], when B's columns are contiguous
// (rsb == 1: a Linear's W [N, K] read as Wᵀ, as decoding a token reads every weight matrix):
//   C[j] = Σ_k A[k] B[k, j], one dot product per column, 32 k at a time in 16 lanes
// (vdpbf16ps), the lanes summed at the end. A row through the packed GEMM would pack all of B
// for it and fill 13 of the tile's 14 rows with zeros; here B is read once, where it lies.
ATTIC_BF16_TARGET void gemv_columns(int64_t n0, int64_t n1, int64_t K, const float* A,
                                    const float* B, int64_t csb, float* C, bool accumulate) {
  std::vector<uint16_t> a(size_t(K + 31) / 32 * 32);  // A's row as bfloat16, zero-padded
  for (int64_t k = 0; k < K; k += 32)
    _mm512_storeu_si512(a.data() + k, (__m512i)rounded_32(A + k, std::min<int64_t>(32, K - k)));
  for (int64_t j = n0; j < n1; ++j) {
    const float* b = B + j * csb;
    __m512 acc = _mm512_setzero_ps();
    for (int64_t k = 0; k < K; k += 32)
      acc = _mm512_dpbf16_ps(acc, (__m512bh)_mm512_loadu_si512(a.data() + k),
                             rounded_32(b + k, std::min<int64_t>(32, K - k)));
    const float c = _mm512_reduce_add_ps(acc);
    C[j] = accumulate ? C[j] + c : c;
  }
}
#endif

// A thread's share of the product: its rows and columns of C start at (i0, j0) of the whole
// one, which the triangle is drawn in.
struct Part {
  Triangle tri;
  int64_t i0, j0;
};

// The pairs [pb, pe) of a KC block (k from pc, kp pairs) that a strip of A's rows [i0, i1) of
// the whole product needs, as gemm.cpp's k_range: kLowerA ends them at the strip's last row,
// kUpperA starts them at its first. A pair that straddles the edge holds one of A's zeros.
inline std::pair<int64_t, int64_t> pair_range(Triangle tri, int64_t i0, int64_t i1, int64_t pc,
                                              int64_t kp) {
  int64_t pb = 0, pe = kp;
  if (tri == Triangle::kLowerA) pe = std::clamp<int64_t>((i1 - pc + 1) / 2, 0, kp);
  if (tri == Triangle::kUpperA) pb = std::clamp<int64_t>((i0 - pc) / 2, 0, kp);
  return {std::min(pb, pe), pe};
}

// The rows of A per strip: AMX's block, or the micro-kernel's tile.
constexpr int strip_rows(bool amx) { return amx ? kAmxMR : MR; }

// C[M, N] (+)= A @ B on this thread: the blocked loops over packed blocks, on AMX's tiles
// (Amx) or the vector micro-kernel. (Its target lets the packing it inlines use AVX-512 too.)
// kLowerC: a tile wholly above the diagonal is skipped.
template <bool Amx, class TA, class TB>
#if ATTIC_HAVE_AVX512_BF16_KERNEL
ATTIC_BF16_TARGET
#endif
void gemm_blocked(int64_t M, int64_t N, int64_t K, const TA* A, int64_t rsa, int64_t csa,
                  const TB* B, int64_t rsb, int64_t csb, float* C, int64_t ldc, bool accumulate,
                  Part part) {
#if ATTIC_HAVE_AVX512_BF16_KERNEL || ATTIC_HAVE_NEON_BF16_KERNEL
  constexpr int Rows = strip_rows(Amx);
  constexpr int64_t Mc = Amx ? kAmxMC : MC;
  // Pairs per strip: kp, or for AMX kp rounded up to a whole tile depth.
  auto padded = [](int64_t kp) { return Amx ? (kp + kAmxPairs - 1) / kAmxPairs * kAmxPairs : kp; };
  const int64_t kpad_max = padded((std::min(KC, K) + 1) / 2);
  uint32_t* Ap =
      t_pack_a.get(size_t((std::min(Mc, M) + Rows - 1) / Rows * Rows * row_pitch(kpad_max)));
  uint32_t* Bp = t_pack_b.get(size_t((std::min(NC, N) + NR - 1) / NR * NR * kpad_max));
#if ATTIC_HAVE_AVX512_BF16_KERNEL
  if constexpr (Amx) amx_configure();
#endif
  for (int64_t jc = 0; jc < N; jc += NC) {
    const int64_t nc = std::min(NC, N - jc);
    for (int64_t pc = 0; pc < K; pc += KC) {
      const int64_t kc = std::min(KC, K - pc), kp = (kc + 1) / 2, kpad = padded(kp);
      pack_b(kc, nc, kpad, B + pc * rsb + jc * csb, rsb, csb, Bp);
      for (int64_t ic = 0; ic < M; ic += Mc) {
        const int64_t mc = std::min(Mc, M - ic);
        const PackedA pa =
            pack_a<Rows>(mc, kc, kpad, Amx || csa == 1, A + ic * rsa + pc * csa, rsa, csa, Ap);
        for (int64_t jr = 0; jr < nc; jr += NR)
          for (int64_t ir = 0; ir < mc; ir += Rows) {
            const int64_t m = std::min<int64_t>(Rows, mc - ir), n = std::min<int64_t>(NR, nc - jr);
            const int64_t i0 = part.i0 + ic + ir, j0 = part.j0 + jc + jr;
            if (part.tri == Triangle::kLowerC && j0 >= i0 + m) continue;  // wholly above
            auto [pb, pe] = pair_range(part.tri, i0, i0 + m, pc, kp);
            if constexpr (Amx)  // whole tile depths: the pairs added are zeros of A or padding
              pb = pb / kAmxPairs * kAmxPairs, pe = padded(pe);
            const uint32_t* a = pa.a + ir / Rows * pa.strip + pb * (pa.rows ? 1 : Rows);
            const uint32_t* b = Bp + jr * kpad + pb * NR;
            float* c = C + (ic + ir) * ldc + jc + jr;
            const bool acc = pc > 0 || accumulate;
#if ATTIC_HAVE_AVX512_BF16_KERNEL
            if constexpr (Amx) {
              micro_kernel_amx(pe - pb, a, pa.pitch, b, c, ldc, m, n, acc);
              continue;
            }
#endif
            if (pa.rows)
              micro<true>(pe - pb, a, pa.pitch, b, c, ldc, m, n, acc);
            else
              micro<false>(pe - pb, a, pa.pitch, b, c, ldc, m, n, acc);
          }
      }
    }
  }
#if ATTIC_HAVE_AVX512_BF16_KERNEL
  if constexpr (Amx) amx_release();
#endif
#else
  (void)M, (void)N, (void)K, (void)A, (void)rsa, (void)csa, (void)B, (void)rsb, (void)csb,
      (void)C, (void)ldc, (void)accumulate, (void)part;
  fail("gemm_bf16: this build has no bf16 kernel (AVX512_BF16 or NEON BF16)");
#endif
}

// The same product split over threads by strips of C.
template <bool Amx, class TA, class TB>
void gemm_tiled(int64_t M, int64_t N, int64_t K, const TA* A, int64_t rsa, int64_t csa,
                const TB* B, int64_t rsb, int64_t csb, float* C, int64_t ldc, Triangle tri,
                bool accumulate) {
  constexpr int Rows = strip_rows(Amx);
  const int64_t m_strips = (M + Rows - 1) / Rows, n_strips = (N + NR - 1) / NR;
  if (m_strips >= n_strips) {
    const auto grain = int64_t(kMinFmasPerThread / (double(Rows) * double(N) * double(K))) + 1;
    parallel_for(0, m_strips, grain, [&](int64_t s0, int64_t s1) {
      const int64_t i0 = s0 * Rows, i1 = std::min(M, s1 * Rows);
      gemm_blocked<Amx>(i1 - i0, N, K, A + i0 * rsa, rsa, csa, B, rsb, csb, C + i0 * ldc, ldc,
                   accumulate, Part{tri, i0, 0});
    });
  } else {
    const auto grain = int64_t(kMinFmasPerThread / (double(NR) * double(M) * double(K))) + 1;
    parallel_for(0, n_strips, grain, [&](int64_t s0, int64_t s1) {
      const int64_t j0 = s0 * NR, j1 = std::min(N, s1 * NR);
      gemm_blocked<Amx>(M, j1 - j0, K, A, rsa, csa, B + j0 * csb, rsb, csb, C + j0, ldc, accumulate,
                   Part{tri, 0, j0});
    });
  }
}

// An operand X [R, S] rounded to bfloat16 and widened back into a row-major float buffer.
template <class T>
std::vector<float> rounded(int64_t R, int64_t S, const T* X, int64_t rs, int64_t cs) {
  std::vector<float> out(size_t(R * S));
  for (int64_t r = 0; r < R; ++r)
    for (int64_t s = 0; s < S; ++s) {
      const uint32_t b = bits(X[r * rs + s * cs]);
      out[size_t(r * S + s)] = bfloat16_bits_to_float(uint16_t(b));
    }
  return out;
}

}  // namespace

const char* bf16_path_name(Bf16Path path) {
  switch (path) {
    case Bf16Path::Avx512Bf16: return "avx512_bf16";
    case Bf16Path::Amx: return "amx_bf16";
    case Bf16Path::NeonBf16: return "neon_bf16";
    case Bf16Path::Convert: break;
  }
  return "convert";
}

bool bf16_path_available(Bf16Path path) {
  switch (path) {
    case Bf16Path::Convert: return true;
    case Bf16Path::Avx512Bf16:
      return ATTIC_HAVE_AVX512_BF16_KERNEL && cpu_level() >= CpuLevel::Avx512Bf16;
    case Bf16Path::Amx:
      return ATTIC_HAVE_AVX512_BF16_KERNEL && cpu_level() >= CpuLevel::AmxBf16;
    case Bf16Path::NeonBf16:
      return ATTIC_HAVE_NEON_BF16_KERNEL && cpu_neon_bf16();
  }
  return false;
}

Bf16Path bf16_gemm_path() {
  for (Bf16Path p : {Bf16Path::Amx, Bf16Path::Avx512Bf16, Bf16Path::NeonBf16})
    if (bf16_path_available(p)) return p;
  return Bf16Path::Convert;
}

template <class TA, class TB>
void gemm_bf16(int64_t M, int64_t N, int64_t K, const TA* A, int64_t rsa, int64_t csa,
               const TB* B, int64_t rsb, int64_t csb, float* C, int64_t ldc, Triangle tri,
               bool accumulate, Bf16Path path) {
  ATTIC_CHECK(bf16_path_available(path), "gemm_bf16: path ", bf16_path_name(path),
              " needs a CPU level this one lacks (it has ", cpu_level_summary(), ")");
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    if (!accumulate)
      for (int64_t i = 0; i < M; ++i) std::fill(C + i * ldc, C + i * ldc + N, 0.0f);
    return;
  }
  if (path == Bf16Path::Convert) {
    const std::vector<float> a = rounded(M, K, A, rsa, csa), b = rounded(K, N, B, rsb, csb);
    return gemm<float>(M, N, K, a.data(), K, 1, b.data(), N, 1, C, ldc, tri, accumulate);
  }
#if ATTIC_HAVE_AVX512_BF16_KERNEL
  if constexpr (std::is_same_v<TA, float> && std::is_same_v<TB, float>)
    if (M == 1 && csa == 1 && rsb == 1 && tri == Triangle::kNone) {
      const int64_t grain = std::max<int64_t>(16, int64_t(kMinFmasPerThread) / K);
      return parallel_for(0, N, grain, [&](int64_t n0, int64_t n1) {
        gemv_columns(n0, n1, K, A, B, csb, C, accumulate);
      });
    }
#endif
  if (path == Bf16Path::Amx)
    return gemm_tiled<true>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
  gemm_tiled<false>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
}

#define ATTIC_GEMM_BF16(TA, TB)                                                              \
  template void gemm_bf16<TA, TB>(int64_t, int64_t, int64_t, const TA*, int64_t, int64_t,    \
                                  const TB*, int64_t, int64_t, float*, int64_t, Triangle, bool, \
                                  Bf16Path);
ATTIC_GEMM_BF16(float, float)
ATTIC_GEMM_BF16(bfloat16, bfloat16)
ATTIC_GEMM_BF16(float, bfloat16)
ATTIC_GEMM_BF16(bfloat16, float)
#undef ATTIC_GEMM_BF16

}  // namespace attic::cpu
