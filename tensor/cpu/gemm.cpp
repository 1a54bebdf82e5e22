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

#include "tensor/cpu/gemm_pack.h"
#include "tensor/cpu/gemv.h"
#include "tensor/cpu/kernels.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {
namespace {

using namespace gemm_detail;

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

// A k-major strip of A at its k-th step (Ap; steps a_step apart, `left` steps from here to
// the strip's end): when A is read in place (the dYᵀ of dW = dYᵀ X), each step moves a whole
// row of dY on and reads one or two new lines of A, 0.5-2 KiB past the last, so the lines
// kAhead steps on (about 100 cycles of FMAs) are asked for before they are needed. A packed
// strip (a_step = MR) is read line after line.
template <class T, int MR>
[[gnu::always_inline]] inline void prefetch_ahead(const T* Ap, int64_t a_step, int64_t left) {
  constexpr int64_t kAhead = 8;
  if (a_step != MR && left > kAhead) {
    __builtin_prefetch(Ap + kAhead * a_step);             // the strip's first value
    __builtin_prefetch(Ap + kAhead * a_step + (MR - 1));  // and its last, maybe a line on
  }
}

// The tile t, C[m, n] (+)= A strip @ B strip, B k-major and A in either layout above
// (RowsA: row-major), the tile MR rows by NV vectors:
//   acc[i][v] = Σ_k A(i, k) * B(k, v * lanes : (v + 1) * lanes).
// Each k step loads kNV vectors of B, broadcasts MR scalars of A, and does MR * kNV FMAs
// (GCC contracts `acc += a * b` into one FMA when the target has it).
// NV: the vectors a row of the tile holds, its family's kNV, or 1 for a tile whose n fits one
// vector (the N = 16 products of Linformer's heads, whose d is 16). A full tile would spend half
// its FMAs on the strip's zero padding; the narrow one does only the useful half, and
// with an FMA that takes its broadcast A from memory it still keeps the FMA ports busy on
// CPUs with three load ports (15 loads to 14 FMAs a k step).
template <class T, bool RowsA, int MR, int NV>
void micro_kernel(const Tile<T>& t) {
  using K = Blocking<T>;
  using V = typename K::Vec;
  constexpr int L = K::kLanes, NR = NV * L;
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
    if constexpr (!RowsA) prefetch_ahead<T, MR>(Ap, a_step, kc - k);
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

  if (m == MR && n == NR) {
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
  alignas(64) T tile[MR * NR];
  std::memcpy(tile, acc, sizeof(tile));
  for (int64_t i = 0; i < m; ++i) {
    const T* r = tile + (i + skip) * NR;
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
// dW = dYᵀ X) column by column (k-major, rsa == 1): at the GPT's shapes a packed A element
// would serve only N / NR micro-kernel calls (4 to 16), too few to repay the copy; at large
// square sizes, where packing pays for itself, reading in place loses little.
// Never when the lines the strip reads would crowd into a few of L1's 64 sets (4 KiB of
// addresses) and evict each other. A row-major strip reads MR rows side by side, MR lines at
// a time, which only rows a multiple of 4 KiB apart put in one set. A k-major strip reads a
// new line every k step, kc lines one column pitch apart: at a multiple of 2 KiB they share
// 2 sets (16 lines of an 8-way L1).
// Nor is a k-major A read in place when C's block has kPackedKmajorN columns or more: each
// packed strip then serves N / NR >= 16 micro-kernel calls (on AVX2), and the A block is
// swept as often, which its kc scattered lines serve worse than one contiguous strip.
// That limit is the 6 x 16 tile's, of 16 vector registers; with 32 (AVX-512, NEON) a k-major
// A stays in place at any N, and the wide tile's a_strip_outer is built on it.
constexpr int64_t kPackedKmajorN = kVecRegs == 16 ? 256 : INT64_MAX;
template <class T, bool RowsA>
bool reads_a_in_place(int64_t N, int64_t rsa, int64_t csa) {
  const int64_t a_pitch = RowsA ? rsa : csa;
  const int64_t crowded = RowsA ? 4096 : 2048;  // bytes of pitch that crowd the strip's lines
  if (!RowsA && N >= kPackedKmajorN) return false;
  return (RowsA ? csa == 1 : rsa == 1) && (a_pitch * int64_t(sizeof(T))) % crowded != 0;
}

// B is read in place too (b_in_place) when its rows hold whole strips (csb == 1, N a
// multiple of NR) and A has few rows (attention's 64-row products: P v, Pᵀ dout, dS k,
// dSᵀ q; the GPT's 128-row dW): a packed strip would then serve only M / MR <= 10
// micro-kernel calls, too few to repay the copy. Rows 4 KiB apart would alias in L1, as A's.
// The limit is 140 rows for the 14-row AVX-512 tile; the 6-row AVX2 tile's is 60 (NEON's
// 50), so there these products are packed: reading them in place would gain or lose, with
// the head size, a negligible share of the GPT's step.
// N of one vector is one strip the narrow tile reads whole (a Linformer head's E K, dSᵀ q
// and Pᵀ dout, whose N is d = 16).
template <class T, int NV>
bool reads_b_in_place(int64_t M, int64_t N, int64_t rsb, int64_t csb) {
  using Bk = Blocking<T, NV>;
  return csb == 1 && (N % Bk::NR == 0 || N == Bk::kLanes) && M <= 10 * Bk::MR &&
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
template <class T, int NV>
struct ABlock {
  const T* a;
  int64_t row_step, lda, mc;
  const T* tail;
  int64_t tail_lda;
  bool shift;

  // The strip whose first row is ir (a multiple of MR) of the block.
  AStrip<T> strip(int64_t ir) const {
    constexpr int MR = Blocking<T, NV>::MR;
    if (ir + MR <= mc) return {a + ir * row_step, lda, 0};
    if (!shift) return {tail, tail_lda, 0};
    const int64_t skip = MR - (mc - ir);  // rows moved up from above
    return {a + (ir - skip) * row_step, lda, skip};
  }
};

// The lda (see Tile) of a packed strip: its row pitch (row-major) or its k step (k-major).
template <class T, int NV, bool RowsA>
constexpr int64_t packed_lda() {
  return RowsA ? kPitch<T> : Blocking<T, NV>::MR;
}

// A [mc, kc] (strides rsa, csa) -> every strip packed into Ap.
template <class T, int NV, bool RowsA>
ABlock<T, NV> a_packed(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap) {
  if constexpr (RowsA) pack_a_rows<T, NV>(mc, kc, A, rsa, csa, Ap);
  else pack_a_kmajor<T, NV>(mc, kc, A, rsa, csa, Ap);
  // Strip r starts at Ap + r * MR * (kPitch or kc).
  const int64_t row_step = RowsA ? kPitch<T> : kc;
  const int64_t full = mc / Blocking<T, NV>::MR * Blocking<T, NV>::MR;
  return {Ap, row_step, packed_lda<T, NV, RowsA>(), mc, Ap + full * row_step,
          packed_lda<T, NV, RowsA>(), false};
}

// A [mc, kc] read in place (reads_a_in_place): the micro-kernel reads A with its own row
// (or column) stride, and skips packing. Only the last, partial strip needs care, because
// its missing rows must read as zeros: when the block has MR rows, or A has rows above the
// block (rows_above: a later block of the same product), the strip is shifted up instead,
// to end at the block's last row; it then reads only rows of A that exist, and writes only
// its own. Otherwise (mc < MR, the first block) it is packed into Ap.
template <class T, int NV, bool RowsA>
ABlock<T, NV> a_in_place(int64_t mc, int64_t kc, const T* A, int64_t rsa, int64_t csa, T* Ap,
                         bool rows_above) {
  constexpr int MR = Blocking<T, NV>::MR;
  const bool shift = mc >= MR || rows_above;
  const int64_t full = mc / MR * MR;
  if (mc % MR && !shift) {
    const T* rest = A + full * rsa;
    if constexpr (RowsA) pack_a_rows<T, NV>(mc - full, kc, rest, rsa, csa, Ap);
    else pack_a_kmajor<T, NV>(mc - full, kc, rest, rsa, csa, Ap);
  }
  return {A, rsa, RowsA ? rsa : csa, mc, Ap, packed_lda<T, NV, RowsA>(), shift};
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
template <class T, int NV>
BPanel<T> b_packed(int64_t kc, int64_t nc, const T* B, int64_t rsb, int64_t csb, T* Bp) {
  pack_b<T, NV>(kc, nc, B, rsb, csb, Bp);
  return {Bp, kc, Blocking<T, NV>::NR};
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

// C[M, N] = A[M, K] @ B[K, N] on this thread, K >= 1, in tiles of the family NV: the
// blocked loops of the file comment.
template <class T, int NV, bool RowsA>
void gemm_blocked(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                  const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc, Part part) {
  using Bk = Blocking<T, NV>;
  const bool direct = reads_a_in_place<T, RowsA>(N, rsa, csa);
  const bool direct_b = reads_b_in_place<T, NV>(M, N, rsb, csb);
  // A k-major A read in place touches a whole line per k step (for MR values of it), twice
  // a row-major strip's footprint in L1 beside the B strip; a shorter KC (KC_kmajor) keeps
  // both in L1, and a still shorter one would pass over C more often. Not with the wide tile,
  // whose B strip [192, 48] takes 36 of L1's 48 KiB: there the jr and ir loops swap
  // (a_strip_outer), so that the A strip (192 lines, 12 KiB) stays in L1 while the panel's B
  // strips stream past it from L2. The 14 x 32 tile, whose strips both fit at KC_kmajor,
  // keeps the loops' order.
  const bool a_strip_outer = !RowsA && direct && NV == kWideNV;
  // A row-major A in place with K over one KC takes the longer KC of Blocking (its KC
  // blocks of equal size: K = 1024 as 512 + 512, not 768 + 256), the narrower panel and
  // the smaller L2 budget. (Not below MR rows, where the one partial strip is packed at
  // kPitch, for KC.)
  const bool rows_in_place = RowsA && direct && M >= Bk::MR && K > Bk::KC;
  const int64_t k_blocks = (K + Bk::KC_rows_in_place - 1) / Bk::KC_rows_in_place;
  const int64_t KC = rows_in_place ? (K + k_blocks - 1) / k_blocks
                     : (!RowsA && direct) ? Bk::KC_kmajor
                                          : Bk::KC;
  const int64_t NC = rows_in_place ? Bk::NC_rows_in_place : Bk::NC;
  const int64_t kc_max = std::min(KC, K);
  // Elements per packed A strip.
  const int64_t strip = Bk::MR * (RowsA ? kPitch<T> : kc_max);
  // The A block shares L2 with the C rows it writes: it is swept once per B strip, and C's
  // rows written in between evict it. So MC rows of A and of C together are held to
  // 512 KiB, a quarter of L2; with A in place, beside a B panel of 1.5 MiB, to 256 KiB.
  const int64_t l2_budget = (rows_in_place ? 256 : 512) * 1024;
  const int64_t mc_fit = l2_budget / (int64_t(sizeof(T)) * (kc_max + std::min(NC, N)));
  const int64_t MC = std::min(Bk::MC, std::max<int64_t>(Bk::MR, mc_fit / Bk::MR * Bk::MR));
  T* Ap = static_cast<T*>(
      t_pack_a.get(sizeof(T) * size_t(round_up(std::min(MC, M), Bk::MR) / Bk::MR * strip)));
  T* Bp = static_cast<T*>(
      t_pack_b.get(sizeof(T) * size_t(kc_max * round_up(std::min(NC, N), Bk::NR))));

  for (int64_t jc = 0; jc < N; jc += NC) {
    const int64_t nc = std::min(NC, N - jc);
    for (int64_t pc = 0; pc < K; pc += KC) {
      const int64_t kc = std::min(KC, K - pc);
      const BPanel<T> bp =
          direct_b ? b_in_place(B + pc * rsb + jc, rsb)
                   : b_packed<T, NV>(kc, nc, B + pc * rsb + jc * csb, rsb, csb, Bp);
      for (int64_t ic = 0; ic < M; ic += MC) {
        const int64_t mc = std::min(MC, M - ic);
        const T* a_block = A + ic * rsa + pc * csa;
        const ABlock<T, NV> ab =
            direct ? a_in_place<T, NV, RowsA>(mc, kc, a_block, rsa, csa, Ap, ic > 0)
                   : a_packed<T, NV, RowsA>(mc, kc, a_block, rsa, csa, Ap);
        // The tile of C at the block's row ir and the panel's column jr.
        auto tile_at = [&](int64_t ir, int64_t jr) {
          const AStrip<T> s = ab.strip(ir);
          const int64_t m = std::min<int64_t>(Bk::MR, mc - ir);
          // The strip's rows [i0, i1) and the tile's first column in the whole product.
          const int64_t i0 = part.row0 + ic + ir - s.skip, i1 = i0 + m + s.skip;
          const int64_t j0 = part.col0 + jc + jr;
          if (part.tri == Triangle::kLowerC && j0 >= i1) return;  // wholly above
          const auto [kb, ke] = k_range(part.tri, i0, i1, pc, kc);
          const int64_t n = std::min<int64_t>(Bk::NR, nc - jr);
          const Tile<T> tile{s.a + kb * (RowsA ? 1 : s.lda), s.lda, bp.strip(jr, kb), bp.ldb,
                             C + (ic + ir) * ldc + jc + jr, ldc, ke - kb, m, n, s.skip,
                             pc > 0 || part.accumulate};
          if (n <= Bk::kLanes) micro_kernel<T, RowsA, Bk::MR, 1>(tile);
          else micro_kernel<T, RowsA, Bk::MR, NV>(tile);
        };
        if (a_strip_outer) {
          for (int64_t ir = 0; ir < mc; ir += Bk::MR)
            for (int64_t jr = 0; jr < nc; jr += Bk::NR) tile_at(ir, jr);
        } else {
          for (int64_t jr = 0; jr < nc; jr += Bk::NR)
            for (int64_t ir = 0; ir < mc; ir += Bk::MR) tile_at(ir, jr);
        }
      }
    }
  }
}

// A column-major A (rsa == 1 and csa != 1) packs k-major, anything else row-major.
template <class T, int NV>
void gemm_blocked(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                  const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc, Part part) {
  if (rsa == 1 && csa != 1)
    gemm_blocked<T, NV, false>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, part);
  else
    gemm_blocked<T, NV, true>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, part);
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
// From this many columns on, threads split C by columns whatever its rows (gemm_tiled).
constexpr int64_t kSplitColumnsN = 1536;

// Splits C into row blocks (or column blocks when N has more NR strips than M has MR
// strips, or is wide) of the family NV's strips, one per thread; each thread runs
// gemm_blocked on its block with its own packing buffers, so threads never wait on each
// other.
template <class T, int NV>
void gemm_tiled(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc, Triangle tri,
                bool accumulate) {
  using Bk = Blocking<T, NV>;
  const int64_t m_strips = (M + Bk::MR - 1) / Bk::MR, n_strips = (N + Bk::NR - 1) / Bk::NR;
  // A row split has every thread pack all of B. For a wide B (N >= kSplitColumnsN: the C =
  // 384 and C = 768 GPT's c_fc, c_attn and c_proj products) a column split halves each of
  // two threads' packing while A, mostly read in place, costs the same; at narrower N
  // (768) the narrower panels lose what the split saves.
  if (m_strips >= n_strips && N < kSplitColumnsN) {
    const auto grain = int64_t(kMinFmasPerThread / (double(Bk::MR) * double(N) * double(K))) + 1;
    parallel_for(0, m_strips, grain, [&](int64_t s0, int64_t s1) {
      const int64_t i0 = s0 * Bk::MR, i1 = std::min(M, s1 * Bk::MR);
      gemm_blocked<T, NV>(i1 - i0, N, K, A + i0 * rsa, rsa, csa, B, rsb, csb, C + i0 * ldc,
                          ldc, Part{i0, 0, tri, accumulate});
    });
  } else {
    const auto grain = int64_t(kMinFmasPerThread / (double(Bk::NR) * double(M) * double(K))) + 1;
    parallel_for(0, n_strips, grain, [&](int64_t s0, int64_t s1) {
      const int64_t j0 = s0 * Bk::NR, j1 = std::min(N, s1 * Bk::NR);
      gemm_blocked<T, NV>(M, j1 - j0, K, A, rsa, csa, B + j0 * csb, rsb, csb, C + j0, ldc,
                          Part{0, j0, tri, accumulate});
    });
  }
}

// Whether a float product takes the wide tile (gemm_pack.h), on targets that have one: N a
// multiple of its 48 columns, so that no strip is padded, and at least 384 of them, below
// which the default tile measured faster.
template <class T>
bool takes_wide_tile(int64_t N) {
  if constexpr (!std::is_same_v<T, float>) return false;
  else return N % Blocking<T, kWideNV>::NR == 0 && N >= 384;
}

}  // namespace

// A triangle is skipped by gemm_blocked only; the small loop computes everything, which the
// contract allows (kLowerC leaves the skipped tiles unspecified, and zeros add nothing).
// An observer (set_gemm_observer) sees each float call first.
template <class T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa, const T* B,
          int64_t rsb, int64_t csb, T* C, int64_t ldc, Triangle tri, bool accumulate) {
  if (M <= 0 || N <= 0) return;
  if constexpr (std::is_same_v<T, float>)
    if (const GemmObserver observe = gemm_observer())
      observe({M, N, K, rsa, csa, rsb, csb, ldc, tri, accumulate, in_parallel_for()});
  if (K <= 0) {
    if (!accumulate)
      for (int64_t i = 0; i < M; ++i) std::fill(C + i * ldc, C + i * ldc + N, T(0));
    return;
  }
  // One row against a weight matrix (decoding a token): B read once in place, not packed.
  if (M == 1 && tri == Triangle::kNone && gemv_takes(csa, rsb, csb))
    return gemv(N, K, A, csa, B, rsb, csb, C, accumulate);
  const double fmas = double(M) * double(N) * double(K);
  if (fmas < kSmallFmas) {
    gemm_small(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, accumulate);
    return;
  }
  if constexpr (kWideNV != 0)
    if (takes_wide_tile<T>(N))
      return gemm_tiled<T, kWideNV>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
  gemm_tiled<T, kDefaultNV>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
}

template void gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, int64_t,
                          const float*, int64_t, int64_t, float*, int64_t, Triangle, bool);
template void gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, int64_t,
                           const double*, int64_t, int64_t, double*, int64_t, Triangle, bool);

}  // namespace attic::cpu::ATTIC_CPU_ISA
