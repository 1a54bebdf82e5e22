// The fast GEMM, in the GotoBLAS / BLIS structure:
//
//   for jc in N by NC:            B panel   Bp[KC, NC]  (packed; lives in L2)
//     for pc in K by KC:
//       pack B[pc:+KC, jc:+NC] into NR-wide column strips
//       for ic in M by MC:        A block   Ap[MC, KC]  (packed; lives in L2)
//         pack A[ic:+MC, pc:+KC] into MR-tall row strips
//         for jr in NC by NR:     B strip   [KC, NR]    (stays in L1 across ir)
//           for ir in MC by MR:   A strip   [MR, KC]    (streamed from L2)
//             micro-kernel: C[MR, NR] += A strip @ B strip, C held in vector registers
//
// Packing copies each operand once per block into the order the micro-kernel reads it (unit
// stride, aligned), whatever its strides were, and pads partial strips with zeros, so the
// micro-kernel never branches on edges; only the write-back of an edge tile does.
// The exceptions: an A that already lies row by row (or column by column) is read in place,
// its partial last strip shifted up to end at A's last row; so is a row-major B when A has
// only a few strips (see a_in_place and b_in_place).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#if defined(__AVX512F__)
// GCC 12 flags the intrinsics' own _mm512_undefined_ps() as "may be used uninitialized"
// (a known false positive); the warning points into this header, so it is silenced here.
// Clang defines __GNUC__ too, but has no such warning (nor the false positive), and would
// reject the unknown name under -Werror.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#elif defined(__AVX__)
#include <immintrin.h>
#endif

#include "tensor/cpu/gemm.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu {
namespace {

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

// ---- Blocking. Sizes are for the development machine, an Intel Xeon (Sapphire Rapids) with
// 48 KiB L1d and 2 MiB L2 per core; float and double blocks take the same bytes per level.
template <class T>
struct Blocking {
  typedef T Vec __attribute__((vector_size(kVecBytes)));
  static constexpr int kLanes = kVecBytes / int(sizeof(T));

  // Micro-tile MR x NR. A row of the tile is kNV vectors; the register budget per k step is
  // MR * kNV accumulators + kNV loaded B vectors + 1 broadcast A value:
  //   32 registers (AVX-512): 14 * 2 + 2 + 1 = 31;   16 registers: 6 * 2 + 2 + 1 = 15.
  // Each k step does MR * kNV FMAs for kNV loads + MR broadcasts, enough to keep both FMA
  // ports busy rather than the load ports.
  // AArch64 is budgeted differently: an FMA there takes its A value from a lane of a
  // register (fmla v.4s, v.4s, v.s[0]), and GCC loads all MR A values of a step ahead, each
  // into a register of its own, so the budget is MR * kNV + kNV + MR. 5 x 16 takes
  // 20 + 4 + 5 = 29 of the 32; 14 x 8 (AVX-512's shape) or 8 x 12 would need 44 or 35, and
  // GCC 12 then spills accumulators to the stack inside the k loop (seen in its assembly).
  // NR = 16, not 12: the GPT's N (head size 64, C = 128 ... 768) are multiples of 16, so no
  // strip is padded and B can be read in place (see b_in_place).
#if defined(__aarch64__)
  static constexpr int kNV = 4;
  static constexpr int MR = 5;
  static_assert(MR * kNV + kNV + MR <= kVecRegs);
#else
  static constexpr int kNV = 2;
  static constexpr int MR = kVecRegs >= 32 ? 14 : 6;
  static_assert(MR * kNV + kNV + 1 <= kVecRegs);
#endif
  static constexpr int NR = kNV * kLanes;

  // KC: a B strip [KC, NR] stays in L1 while every A strip of the block streams past it:
  // KC * NR * sizeof(T) = 256 * kNV * kVecBytes = 32 KiB of the 48 KiB L1 with AVX-512
  // (16 KiB with AVX2 and NEON, whose L1 is 64 KiB or more, 8 KiB with SSE); the A strip
  // [MR, KC] (MR KiB of float: 14 with AVX-512) comes from L2. A long KC also spreads the C
  // tile's load and store over more FMAs. KC = 192 and 384 measured the same within noise.
  static constexpr int64_t KC = 256;
  static constexpr int64_t KC_kmajor = 192;  // for a k-major A read in place (gemm_blocked)
  // MC: the packed A block [MC, KC] stays in L2 while the jr loop sweeps it NC / NR times;
  // give it about half of L2 (1 MiB), rounded to whole strips. (gemm_blocked lowers it when
  // the C rows the block writes are wide: see there.)
  static constexpr int64_t MC = (1024 * 1024) / (KC * int64_t(sizeof(T))) / MR * MR;
  // NC: the packed B panel [KC, NC] is swept once per A block, so it should stay in L2:
  // 1 MiB, 1024 float columns. A panel sized for L3 instead (4 MiB) measured 20-30 % slower
  // on products with wide N (the C = 768 GPT's x Wᵀ: N = 2304 and 3072), and the same on
  // the rest.
  static constexpr int64_t NC = (1024 * 1024) / (KC * int64_t(sizeof(T))) / NR * NR;
};

// A thread's packing buffer: 64-byte aligned (a cache line, and one zmm), grown on need.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }

  void* get(size_t bytes) {
    if (bytes > cap_) {
      release();
      p_ = ::operator new(bytes, std::align_val_t(64));
      cap_ = bytes;
    }
    return p_;
  }

 private:
  void release() {
    if (p_ != nullptr) ::operator delete(p_, std::align_val_t(64));
    p_ = nullptr;
    cap_ = 0;
  }
  void* p_ = nullptr;
  size_t cap_ = 0;
};

thread_local Buffer t_pack_a, t_pack_b;

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
template <class T>
void pack_a_kmajor(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap) {
  constexpr int MR = Blocking<T>::MR;
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
template <class T>
void pack_a_rows(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap) {
  constexpr int MR = Blocking<T>::MR;
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
inline void pack_b_transposed(int64_t kc16, const float* b, int64_t csb, float* Bp) {
  constexpr int NR = Blocking<float>::NR;
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
inline void pack_b_transposed(int64_t kc8, const float* b, int64_t csb, float* Bp) {
  constexpr int NR = Blocking<float>::NR;
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
template <class T>
void pack_b(int64_t kc, int64_t nc, const T* B, int64_t rsb, int64_t csb, T* Bp) {
  constexpr int NR = Blocking<T>::NR;
  for (int64_t j0 = 0; j0 < nc; j0 += NR, Bp += NR * kc) {
    const int64_t n = std::min<int64_t>(NR, nc - j0);
    const T* b = B + j0 * csb;
    int64_t k = 0;
#if defined(__AVX512F__) || defined(__AVX__)
    if constexpr (std::is_same_v<T, float>) {
      constexpr int64_t kBlock = kVecBytes / 4;  // the transpose's block: 16, or 8 floats
      if (rsb == 1 && csb != 1 && n == NR) {
        k = kc / kBlock * kBlock;
        pack_b_transposed(k, b, csb, Bp);
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

// One micro-kernel call: C tile (=, or += when accumulate) A strip [MR, kc] @ B strip
// [kc, NR], of which the top-left m <= MR, n <= NR is written.
template <class T>
struct Tile {
  // A(i, k) of the strip: a[i * lda + k] (row-major: lda is kPitch when packed, A's row
  // stride when read in place) or a[k * lda + i] (k-major: MR when packed, A's column
  // stride when read in place).
  const T* a;
  int64_t lda;
  const T* b;  // B(k, j) of the strip = b[k * ldb + j] (ldb: NR packed, B's row stride in place)
  int64_t ldb;
  T* c;  // C(i, j) of the tile = c[i * ldc + j]
  int64_t ldc;
  int64_t kc;  // k steps
  int64_t m, n;
  // The strip's first rows that are not written (m + skip <= MR): a strip shifted up to end
  // at the last row of A, so that it can be read in place (see a_in_place), writes only its
  // last m rows, to the tile's rows 0..m-1.
  int64_t skip;
  bool accumulate;
};

// The tile t, C[m, n] (+)= A strip @ B strip, B k-major and A in either layout above
// (RowsA: row-major):
//   acc[i][v] = Σ_k A(i, k) * B(k, v * lanes : (v + 1) * lanes).
// Each k step loads kNV vectors of B, broadcasts MR scalars of A, and does MR * kNV FMAs
// (GCC contracts `acc += a * b` into one FMA when the target has it).
template <class T, bool RowsA>
void micro_kernel(const Tile<T>& t) {
  using K = Blocking<T>;
  using V = typename K::Vec;
  constexpr int MR = K::MR, NV = K::kNV, L = K::kLanes;
  // The fields as locals: the write-back's memcpy stores to C may alias anything, *t too,
  // and would make the compiler load each field again after every store.
  const T* __restrict Ap = t.a;
  const T* __restrict Bp = t.b;
  T* const C = t.c;
  const int64_t kc = t.kc, ldb = t.ldb, ldc = t.ldc, m = t.m, n = t.n, skip = t.skip;
  const bool accumulate = t.accumulate;
  // Where A(i, k) sits relative to the k-th step's pointer, and how far that pointer moves.
  const int64_t a_row = RowsA ? t.lda : 1;
  const int64_t a_step = RowsA ? 1 : t.lda;

  V acc[MR][NV] = {};
  for (int64_t k = 0; k < kc; ++k, Ap += a_step, Bp += ldb) {
    V b[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) std::memcpy(&b[v], Bp + v * L, sizeof(V));
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i) {
      const T a = Ap[i * a_row];
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[i][v] += a * b[v];
    }
  }

  if (m == MR && n == K::NR) {
#pragma GCC unroll 16
    for (int i = 0; i < MR; ++i)
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) {
        T* c = C + i * ldc + v * L;
        V x = acc[i][v];
        if (accumulate) {
          V old;
          std::memcpy(&old, c, sizeof(V));
          x += old;
        }
        std::memcpy(c, &x, sizeof(V));
      }
    return;
  }
  // Edge tile: spill the accumulators, write back only the valid m x n block.
  alignas(64) T tile[MR * K::NR];
  std::memcpy(tile, acc, sizeof(tile));
  for (int64_t i = 0; i < m; ++i) {
    const T* r = tile + (i + skip) * K::NR;
    for (int64_t j = 0; j < n; ++j) C[i * ldc + j] = accumulate ? C[i * ldc + j] + r[j] : r[j];
  }
}

// Rounds x up to a multiple of r.
int64_t round_up(int64_t x, int64_t r) { return (x + r - 1) / r * r; }

// A thread's block of C within the whole product (its first row and column there), the
// triangle the whole product skips (its diagonal is the whole product's), and whether C is
// added to.
struct Part {
  int64_t row0 = 0, col0 = 0;
  Triangle tri = Triangle::kNone;
  bool accumulate = false;
};

// ---- Where the micro-kernel reads A and B: packed copies, or the operands where they lie.

// A is read where it lies (a_in_place) when its MR values per k step can be reached from
// one pointer: a row-major A row by row (RowsA, csa == 1), a column-major A (the dYᵀ of
// dW = dYᵀ X) column by column (k-major, rsa == 1). Unpacked A measured 5-15 % faster at
// the GPT's row-major shapes, where a packed A element would be used only N / NR times
// (4 to 16), 2-9 % faster at its dW shapes, and 10-40 % faster on attention's 64 x 64
// products; about 5 % slower at 1000³, where packing pays for itself. Never when rows
// (or columns) lie a multiple of 4 KiB apart (1024³: 12 % slower): the strip's lines then
// map to the same few L1 sets and evict each other.
template <class T, bool RowsA>
bool reads_a_in_place(int64_t rsa, int64_t csa) {
  const int64_t a_pitch = RowsA ? rsa : csa;
  return (RowsA ? csa == 1 : rsa == 1) && (a_pitch * int64_t(sizeof(T))) % 4096 != 0;
}

// B is read in place too (b_in_place) when its rows hold whole strips (csb == 1, N a
// multiple of NR) and A has few rows (attention's 64-row products: P v, Pᵀ dout, dS k,
// dSᵀ q; the GPT's 128-row dW): a packed strip would then serve only M / MR <= 10
// micro-kernel calls, too few to repay the copy (measured 13-22 % faster on attention's
// products, 6 % on the 128 x 128 x 768 dW). Rows 4 KiB apart would alias in L1, as A's.
template <class T>
bool reads_b_in_place(int64_t M, int64_t N, int64_t rsb, int64_t csb) {
  using Bk = Blocking<T>;
  return csb == 1 && N % Bk::NR == 0 && M <= 10 * Bk::MR &&
         (rsb * int64_t(sizeof(T))) % 4096 != 0;
}

// A strip of MR rows of A as a Tile reads it (a, lda, skip: see Tile), at its first k step.
template <class T>
struct AStrip {
  const T* a;
  int64_t lda;
  int64_t skip;
};

// A block of A [mc, kc] as the micro-kernel reads it: strip r (rows r * MR on) at
// a + r * MR * row_step with lda, except the last one when it is partial (mc % MR rows),
// which is read at `tail` (packed, tail_lda) or, shifted, from the rows above it.
template <class T>
struct ABlock {
  const T* a;
  int64_t row_step, lda, mc;
  const T* tail;
  int64_t tail_lda;
  bool shift;

  // The strip whose first row is ir (a multiple of MR) of the block.
  AStrip<T> strip(int64_t ir) const {
    constexpr int MR = Blocking<T>::MR;
    if (ir + MR <= mc) return {a + ir * row_step, lda, 0};
    if (!shift) return {tail, tail_lda, 0};
    const int64_t skip = MR - (mc - ir);  // rows moved up from above
    return {a + (ir - skip) * row_step, lda, skip};
  }
};

// The lda (see Tile) of a packed strip: its row pitch (row-major) or its k step (k-major).
template <class T, bool RowsA>
constexpr int64_t packed_lda() {
  return RowsA ? kPitch<T> : Blocking<T>::MR;
}

// A [mc, kc] (strides rsa, csa) -> every strip packed into Ap.
template <class T, bool RowsA>
ABlock<T> a_packed(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap) {
  if constexpr (RowsA) pack_a_rows(mc, kc, A, rsa, csa, Ap);
  else pack_a_kmajor(mc, kc, A, rsa, csa, Ap);
  // Strip r starts at Ap + r * MR * (kPitch or kc).
  const int64_t row_step = RowsA ? kPitch<T> : kc;
  const int64_t full = mc / Blocking<T>::MR * Blocking<T>::MR;
  return {Ap, row_step, packed_lda<T, RowsA>(), mc, Ap + full * row_step,
          packed_lda<T, RowsA>(), false};
}

// A [mc, kc] read in place (reads_a_in_place): the micro-kernel reads A with its own row
// (or column) stride, and skips packing. Only the last, partial strip needs care, because
// its missing rows must read as zeros: when the block has MR rows, the strip is shifted up
// instead, to end at the block's last row; it then reads only rows of A that exist, and
// writes only its own. Otherwise (mc < MR) it is packed into Ap.
template <class T, bool RowsA>
ABlock<T> a_in_place(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap) {
  constexpr int MR = Blocking<T>::MR;
  const bool shift = mc >= MR;
  const int64_t full = mc / MR * MR;
  if (mc % MR && !shift) {
    const T* rest = A + full * rsa;
    if constexpr (RowsA) pack_a_rows(mc - full, kc, rest, rsa, csa, Ap);
    else pack_a_kmajor(mc - full, kc, rest, rsa, csa, Ap);
  }
  return {A, rsa, RowsA ? rsa : csa, mc, Ap, packed_lda<T, RowsA>(), shift};
}

// A panel of B [kc, nc] as the micro-kernel reads it: strip jr (a multiple of NR) at
// b + jr * col_step, its k steps ldb apart.
template <class T>
struct BPanel {
  const T* b;
  int64_t col_step, ldb;
  // Strip jr from its k step kb.
  const T* strip(int64_t jr, int64_t kb) const { return b + jr * col_step + kb * ldb; }
};

// B [kc, nc] (strides rsb, csb) -> packed strips in Bp, each [kc, NR] k-major.
template <class T>
BPanel<T> b_packed(int64_t kc, int64_t nc, const T* B, int64_t rsb, int64_t csb, T* Bp) {
  pack_b(kc, nc, B, rsb, csb, Bp);
  return {Bp, kc, Blocking<T>::NR};
}

// B read in place (reads_b_in_place): row-major, whole strips, so a strip is B's own
// columns jr..jr+NR-1, its k steps one row (rsb) apart.
template <class T>
BPanel<T> b_in_place(const T* B, int64_t rsb) {
  return {B, 1, rsb};
}

// The k range [kb, ke) of a KC block (k from pc, kc of them) that a strip of A's rows
// [i0, i1) of the whole product needs: a triangle of zeros in A shortens it for the strip
// as a whole (its last row for kLowerA, its first for kUpperA; the strip's other rows then
// add exact zeros). An empty range still writes the tile's zeros.
inline std::pair<int64_t, int64_t> k_range(Triangle tri, int64_t i0, int64_t i1, int64_t pc,
                                           int64_t kc) {
  int64_t kb = 0, ke = kc;
  if (tri == Triangle::kLowerA) ke = std::clamp<int64_t>(i1 - pc, 0, kc);
  if (tri == Triangle::kUpperA) kb = std::clamp<int64_t>(i0 - pc, 0, kc);
  return {std::min(kb, ke), ke};
}

// C[M, N] = A[M, K] @ B[K, N] on this thread, K >= 1: the blocked loops of the file comment.
template <class T, bool RowsA>
void gemm_blocked(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                  const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc, Part part) {
  using Bk = Blocking<T>;
  const bool direct = reads_a_in_place<T, RowsA>(rsa, csa);
  const bool direct_b = reads_b_in_place<T>(M, N, rsb, csb);
  // A k-major A read in place touches a whole line per k step (for MR values of it), twice
  // a row-major strip's footprint in L1 beside the B strip; a shorter KC keeps both in L1
  // (192: 5 % faster on the 512 x 128 x 768 dW, the same elsewhere; 128 loses on C's extra
  // passes).
  const int64_t KC = (!RowsA && direct) ? Bk::KC_kmajor : Bk::KC;
  const int64_t kc_max = std::min(KC, K);
  // Elements per packed A strip.
  const int64_t strip = Bk::MR * (RowsA ? kPitch<T> : kc_max);
  // The A block shares L2 with the C rows it writes: it is swept once per B strip, and C's
  // rows written in between evict it. So MC rows of A and of C together are held to
  // 512 KiB (256 KiB to 1 MiB measured; 512 KiB best): 5-8 % faster at N = 384 and 512,
  // and 8 % at 1024³, than the fixed MC alone.
  const int64_t mc_fit = (512 * 1024) / (int64_t(sizeof(T)) * (kc_max + std::min(Bk::NC, N)));
  const int64_t MC = std::min(Bk::MC, std::max<int64_t>(Bk::MR, mc_fit / Bk::MR * Bk::MR));
  T* Ap = static_cast<T*>(
      t_pack_a.get(sizeof(T) * size_t(round_up(std::min(MC, M), Bk::MR) / Bk::MR * strip)));
  T* Bp = static_cast<T*>(
      t_pack_b.get(sizeof(T) * size_t(kc_max * round_up(std::min(Bk::NC, N), Bk::NR))));

  for (int64_t jc = 0; jc < N; jc += Bk::NC) {
    const int64_t nc = std::min(Bk::NC, N - jc);
    for (int64_t pc = 0; pc < K; pc += KC) {
      const int64_t kc = std::min(KC, K - pc);
      const BPanel<T> bp = direct_b ? b_in_place(B + pc * rsb + jc, rsb)
                                    : b_packed(kc, nc, B + pc * rsb + jc * csb, rsb, csb, Bp);
      for (int64_t ic = 0; ic < M; ic += MC) {
        const int64_t mc = std::min(MC, M - ic);
        const T* a_block = A + ic * rsa + pc * csa;
        const ABlock<T> ab = direct ? a_in_place<T, RowsA>(mc, kc, a_block, rsa, csa, Ap)
                                    : a_packed<T, RowsA>(mc, kc, a_block, rsa, csa, Ap);
        for (int64_t jr = 0; jr < nc; jr += Bk::NR)
          for (int64_t ir = 0; ir < mc; ir += Bk::MR) {
            const AStrip<T> s = ab.strip(ir);
            const int64_t m = std::min<int64_t>(Bk::MR, mc - ir);
            // The strip's rows [i0, i1) and the tile's first column in the whole product.
            const int64_t i0 = part.row0 + ic + ir - s.skip, i1 = i0 + m + s.skip;
            const int64_t j0 = part.col0 + jc + jr;
            if (part.tri == Triangle::kLowerC && j0 >= i1) continue;  // wholly above
            const auto [kb, ke] = k_range(part.tri, i0, i1, pc, kc);
            micro_kernel<T, RowsA>(Tile<T>{s.a + kb * (RowsA ? 1 : s.lda), s.lda,
                                           bp.strip(jr, kb), bp.ldb,
                                           C + (ic + ir) * ldc + jc + jr, ldc, ke - kb, m,
                                           std::min<int64_t>(Bk::NR, nc - jr), s.skip,
                                           pc > 0 || part.accumulate});
          }
      }
    }
  }
}

// A column-major A (rsa == 1 and csa != 1) packs k-major, anything else row-major.
template <class T>
void gemm_blocked(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                  const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc, Part part) {
  if (rsa == 1 && csa != 1)
    gemm_blocked<T, false>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, part);
  else
    gemm_blocked<T, true>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, part);
}

// C[M, N] (+)= A[M, K] @ B[K, N] for small problems, where packing would cost more than it
// saves: C(i, :) = Σ_k A(i, k) B(k, :), the inner loop along a row of B and C.
template <class T>
void gemm_small(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc, bool accumulate) {
  for (int64_t i = 0; i < M; ++i) {
    T* c = C + i * ldc;
    if (!accumulate)
      for (int64_t j = 0; j < N; ++j) c[j] = T(0);
    for (int64_t k = 0; k < K; ++k) {
      const T a = A[i * rsa + k * csa];
      const T* b = B + k * rsb;
      for (int64_t j = 0; j < N; ++j) c[j] += a * b[j * csb];
    }
  }
}

// Below this many multiply-adds (M N K) the simple loop wins.
constexpr double kSmallFmas = 32.0 * 32.0 * 32.0;
// A thread gets at least this many multiply-adds, or waking it costs more than it saves.
constexpr double kMinFmasPerThread = 1 << 20;

}  // namespace

// Splits C into row blocks (or column blocks when N has more NR strips than M has MR
// strips), one per thread; each thread runs gemm_blocked on its block with its own packing
// buffers, so threads never wait on each other.
// A triangle is skipped by gemm_blocked only; the small loop computes everything, which the
// contract allows (kLowerC leaves the skipped tiles unspecified, and zeros add nothing).
template <class T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa, const T* B,
          int64_t rsb, int64_t csb, T* C, int64_t ldc, Triangle tri, bool accumulate) {
  using Bk = Blocking<T>;
  if (M <= 0 || N <= 0) return;
  if (K <= 0) {
    if (!accumulate)
      for (int64_t i = 0; i < M; ++i) std::fill(C + i * ldc, C + i * ldc + N, T(0));
    return;
  }
  const double fmas = double(M) * double(N) * double(K);
  if (fmas < kSmallFmas) {
    gemm_small(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, accumulate);
    return;
  }

  const int64_t m_strips = (M + Bk::MR - 1) / Bk::MR, n_strips = (N + Bk::NR - 1) / Bk::NR;
  if (m_strips >= n_strips) {
    const auto grain = int64_t(kMinFmasPerThread / (double(Bk::MR) * double(N) * double(K))) + 1;
    parallel_for(0, m_strips, grain, [&](int64_t s0, int64_t s1) {
      const int64_t i0 = s0 * Bk::MR, i1 = std::min(M, s1 * Bk::MR);
      gemm_blocked(i1 - i0, N, K, A + i0 * rsa, rsa, csa, B, rsb, csb, C + i0 * ldc, ldc,
                   Part{i0, 0, tri, accumulate});
    });
  } else {
    const auto grain = int64_t(kMinFmasPerThread / (double(Bk::NR) * double(M) * double(K))) + 1;
    parallel_for(0, n_strips, grain, [&](int64_t s0, int64_t s1) {
      const int64_t j0 = s0 * Bk::NR, j1 = std::min(N, s1 * Bk::NR);
      gemm_blocked(M, j1 - j0, K, A, rsa, csa, B + j0 * csb, rsb, csb, C + j0, ldc,
                   Part{0, j0, tri, accumulate});
    });
  }
}

template void gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t,
                          const float*, int64_t, int64_t, float*, int64_t, Triangle, bool);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t,
                           const double*, int64_t, int64_t, double*, int64_t, Triangle, bool);

}  // namespace attic::cpu
