// Fused scaled dot-product attention on the CPU, forward and backward, by blocks of query rows.
// The composed form (matmul, scale, masked_fill, softmax, matmul) makes five passes over
// the [T, T] scores and keeps four of them alive for backward; here each head's scores
// live in a small scratch matrix, the mask is the loop bound, and only the softmax weights
// P are kept, or, when they would take many MiB, only each row's log-sum-exp, from which
// the backward forms P again (see weights_from_lse). tests/tensor/cpu/test_attention.cpp
// checks this against attention_naive (tensor/cpu/attention.h), tests/ops/test_attention.cpp
// against the composed ops.
#include <algorithm>
#include <cmath>
#include <vector>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/dropout.h"
#include "tensor/cpu/fast_math.h"
#include "tensor/cpu/gemm_bf16.h"
#include "tensor/cpu/strided.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Element offsets of every head (every index of the leading dims [*]) in each operand.
// The operands are 3-d or more: [*, rows, cols].
template <size_t N>
std::vector<std::array<int64_t, N>> head_offsets(const std::array<const KTensor*, N>& ts) {
  const KTensor& first = *ts[0];
  std::vector<int64_t> lead(first.shape.begin(), first.shape.end() - 2);
  lead.push_back(1);  // one "row" per head
  std::array<std::vector<int64_t>, N> strides;
  std::array<const std::vector<int64_t>*, N> sp;
  for (size_t k = 0; k < N; ++k) {
    strides[k].assign(ts[k]->strides.begin(), ts[k]->strides.end() - 2);
    strides[k].push_back(0);
    sp[k] = &strides[k];
  }
  std::vector<std::array<int64_t, N>> out;
  strided_rows<N>(lead, sp, [&](auto off, int64_t, auto) { out.push_back(off); });
  return out;
}

// (row stride, column stride) of the last two dims.
struct RC {
  int64_t r, c;
};
RC rc(const KTensor& t) { return {t.strides[t.strides.size() - 2], t.strides.back()}; }

// What the forward saved for backward, as a [*, Tq, cols] operand whose heads line up with
// q's (rank: q's): the weights P [*, Tq, Tk] as they are, or the log-sum-exp lse [*, Tq]
// (one dim fewer) seen as [*, Tq, 1].
KTensor saved_rows(const KTensor& att, size_t rank) {
  KTensor t = att;
  if (t.shape.size() + 1 == rank) {
    t.shape.push_back(1);
    t.strides.push_back(1);
  }
  return t;
}

}  // namespace

namespace {

// Query rows per block, for rows of ld elements: as many as fit 512 KiB (a quarter of L2),
// so that a block's scores stay in L2 while the softmax, the dropout and the products read
// them, where a whole head's [Tq, Tk] would be a pass through memory for each of them
// (1024 keys: 126 rows). Never fewer than 16, and all of them when T <= 256 (one block, as
// small heads fit anyway).
template <class T>
int64_t block_rows(int64_t ld) {
  return std::max<int64_t>(16, (512 * 1024) / (ld * int64_t(sizeof(T))));
}

// The b-th block of a head in the order the forward hands blocks to threads: 0, nb-1, 1,
// nb-2, ... Causal blocks grow heavier down the rows (block b sees about b + 1 blocks of
// keys), and parallel_for gives each thread a contiguous run of work items; alternating
// light and heavy blocks gives every run about the same work when one head is split
// between threads.
int64_t block_in_order(int64_t w, int64_t nb) { return (w % 2 == 0) ? w / 2 : nb - 1 - w / 2; }

// Work items per head in the backward: groups of query blocks, each gathering its own
// partial dk and dv. A head's blocks all add into the same dk and dv rows, so when there are
// fewer heads than kMinItems the head is split into G groups (group g takes blocks g, g + G,
// g + 2G, ...: light causal blocks beside heavy ones), whose partial sums are added in
// group order at the end. G depends on the shapes only, never on the thread count, so dk
// and dv come out the same bit for bit at any number of threads.
constexpr int64_t kMinItems = 8;
int64_t backward_groups(int64_t heads, int64_t nb) {
  return std::clamp<int64_t>((kMinItems + heads - 1) / heads, 1, std::max<int64_t>(nb, 1));
}

// The keys a block of query rows [i0, i1) sees. Causal: row i sees j <= i, so keys
// [0, rect) are seen by every row of the block (a rectangle, where the products need no
// triangle) and keys [rect, vis) form the diagonal block, a lower triangle in the block's
// own coordinates. Not causal: every key is in the rectangle.
struct Keys {
  int64_t rect, vis;
};
Keys keys_of(int64_t i0, int64_t i1, int64_t Tk, bool causal) {
  if (!causal) return {Tk, Tk};
  return {std::min(i0, Tk), std::min(i1, Tk)};
}

// The products of a call (q kᵀ and P v forward; Pᵀ dout, dout vᵀ, dS k and dSᵀ q backward), in
// T (gemm), or, for float32 operands under autocast (compute = bfloat16), in gemm_bf16: each
// operand rounded to bfloat16 as it is packed, the sums float32, as PyTorch's CPU attention
// runs under torch.autocast("cpu", torch.bfloat16) on bfloat16 q, k, v. Both take the same
// triangles.
template <class T>
struct Products {
  bool bf16 = false;
  void operator()(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa,
                  const T* B, int64_t rsb, int64_t csb, T* C, int64_t ldc,
                  Triangle tri = Triangle::kNone, bool accumulate = false) const {
    if constexpr (std::is_same_v<T, float>)
      if (bf16) return gemm_bf16(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
    gemm<T>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
  }
};

// compute (Backend::attention) as Products: an Error for a dtype this kernel lacks.
template <class T>
Products<T> products_in(DType compute, const char* op) {
  ATTIC_CHECK(compute == kFloat32 || (compute == kBFloat16 && std::is_same_v<T, float>), op,
              ": products in ", dtype_name(compute), " are not implemented for ",
              dtype_name(dtype_of<T>::value), " q, k, v (bfloat16 ones are, for float32)");
  return {compute == kBFloat16};
}

// Keys row i sees: j < visible(i).
int64_t visible(int64_t i, int64_t Tk, bool causal) { return causal ? std::min(i + 1, Tk) : Tk; }

// S [rows, vis] (rows lds apart) = q kᵀ for a block of query rows whose keys are
// keys_of(...) = {rect, vis}: q [rows, hs] (strides sq) and k [vis, hs] (strides sk; kᵀ is k
// read with its strides swapped). The rectangle of keys [0, rect), then the diagonal block
// [rect, vis), a lower triangle when causal (tiles wholly above it are skipped). The forward
// forms its scores so, and the backward forms them again where only lse was saved.
template <class T>
void block_scores(const Products<T>& mm, const T* qb, RC sq, const T* pk, RC sk, int64_t rows,
                  int64_t hs, Keys keys, bool causal, T* S, int64_t lds) {
  mm(rows, keys.rect, hs, qb, sq.r, sq.c, pk, sk.c, sk.r, S, lds);
  mm(rows, keys.vis - keys.rect, hs, qb, sq.r, sq.c, pk + keys.rect * sk.r, sk.c, sk.r,
     S + keys.rect, lds, causal ? Triangle::kLowerC : Triangle::kNone);
}

// D = dropout(P) for query rows [i0, i0 + rows) of one head: P's rows ldp apart, D's ldd apart,
// both from the block's first row; columns up to vis are written. P starts at element `at`
// of the contiguous att [*, Tq, Tk], and (i, j) is masked as att's element at + i Tk + j:
// the mask the composed path (ops/dropout.cpp on P) draws with the same key. Causal: only
// j <= i is drawn; the rest of D's row is zero, as P's is.
template <class T>
void dropout_rows(T* D, int64_t ldd, const T* P, int64_t ldp, int64_t at, int64_t i0,
                  int64_t rows, int64_t Tk, int64_t vis, bool causal, double p, uint64_t key) {
  const uint32_t threshold = dropout_threshold(p);
  const T keep_scale = p >= 1 ? T(0) : T(1.0 / (1.0 - p));
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t i = i0 + r, n = visible(i, Tk, causal);
    dropout_span<T>(D + r * ldd, P + r * ldp, n, uint64_t(at + i * Tk), key, threshold,
                    keep_scale);
    std::fill(D + r * ldd + n, D + r * ldd + vis, T(0));
  }
}

// Rows of a matrix: the first one's pointer and their pitch.
template <class T>
struct RowsOf {
  const T* p;
  int64_t ld;
};

// The weights that a block of query rows [i0, i0 + rows) multiplies with v (forward) or
// whose transpose multiplies dout (backward): D = dropout(P) written to the scratch D (rows
// ldd apart) when p > 0, else P itself, or P's rows copied to D when `copy` (P's rows 4 KiB
// apart, which the GEMM would pack: see scratch_pitch). P's rows are ldp apart.
template <class T>
RowsOf<T> block_weights(T* D, int64_t ldd, const T* P, int64_t ldp, int64_t at, int64_t i0,
                        int64_t rows, int64_t Tk, int64_t vis, bool causal, double p,
                        uint64_t key, bool copy) {
  if (p > 0) {
    dropout_rows(D, ldd, P, ldp, at, i0, rows, Tk, vis, causal, p, key);
    return {D, ldd};
  }
  if (!copy) return {P, ldp};
  for (int64_t r = 0; r < rows; ++r) std::copy(P + r * ldp, P + r * ldp + vis, D + r * ldd);
  return {D, ldd};
}

// The row pitch of a [rows, n] scratch matrix: n, plus one cache line when n elements are a
// multiple of 4 KiB. Rows 4 KiB apart map to the same few L1 sets, so the GEMM copies
// (packs) such a matrix before reading it (see reads_a_in_place in gemm.cpp); a padded one
// it reads where it lies.
template <class T>
int64_t scratch_pitch(int64_t n) {
  return (n * int64_t(sizeof(T))) % 4096 == 0 ? n + 64 / int64_t(sizeof(T)) : n;
}

// P = softmax over the visible keys of rows [i0, i0 + rows) of s S, in place in S (rows lds
// apart; S holds q kᵀ for keys j < visible(i), anything elsewhere). Columns past the visible
// keys, up to `width`, are written as exact zeros: the products that read P need them there.
// lse (unless null; rows lse_step apart) receives each row's log Σ_j e^(s S_ij), from which
// weights_from_lse rebuilds the row. With inv (not null) the rows are left unnormalized,
// e^(s S_ij - max_j s S_ij), and inv[r] receives 1 / their sum: the caller scales what it
// makes of them (out = inv ⊙ (E v), the copy to att) rather than the scores in a pass of
// their own.
template <class T>
void softmax_rows(T* S, int64_t lds, int64_t i0, int64_t rows, int64_t Tk, bool causal, T s,
                  int64_t width, T* lse, int64_t lse_step, T* inv) {
  // Max subtracted (see softmax.cpp). Keys j < n are visible. The loops run to nv, n
  // rounded up to whole vectors of 16 (not past Tk), with the masked lanes set to -inf (so
  // e^(-inf - m) = 0 exactly): a short causal row then costs one or two vector steps, not a
  // scalar tail of up to 15.
  // The scale needs no pass of its own either: for s > 0, max_j s x_j = s max_j x_j, and a
  // masked lane's s · -inf stays -inf, so the exponent is one FMA, s x_j - s max x. Any other
  // s (0, or negative: a caller's choice, never the default 1/√hs) scales the row first.
  // Each row is a chain of dependent steps (max, then e^x and its sum, then 1 / sum), each
  // ending in a horizontal reduction; rows go in groups of kGroup, every step done for the
  // whole group before the next, so that the chains of different rows overlap in the CPU
  // instead of one waiting on the next.
  const bool folded = s > 0;
  const T f = folded ? s : T(1);  // the factor the exponent applies
  constexpr int64_t kGroup = 4;
  for (int64_t r0 = 0; r0 < rows; r0 += kGroup) {
    const int64_t g = std::min(kGroup, rows - r0);
    int64_t n[kGroup], nv[kGroup];
    T m[kGroup], rsum[kGroup];
    for (int64_t r = 0; r < g; ++r) {
      T* row = S + (r0 + r) * lds;
      n[r] = visible(i0 + r0 + r, Tk, causal);
      nv[r] = std::min(Tk, (n[r] + 15) / 16 * 16);
      // Scale, and mask, in loops of their own: a condition inside would keep them scalar.
      if (!folded)
        for (int64_t j = 0; j < n[r]; ++j) row[j] *= s;
      for (int64_t j = n[r]; j < nv[r]; ++j) row[j] = T(-INFINITY);
      T mr = -INFINITY;
      // (the ternary vectorizes where std::max does not, with GCC: see tensor/cpu/softmax.cpp)
#if !defined(__clang__)
#pragma omp simd reduction(max : mr)
#endif
      for (int64_t j = 0; j < nv[r]; ++j) mr = mr > row[j] ? mr : row[j];
      m[r] = f * mr;
    }
    for (int64_t r = 0; r < g; ++r) {
      T* row = S + (r0 + r) * lds;
      const T mr = m[r];
      T sum = 0;
#pragma omp simd reduction(+ : sum)
      for (int64_t j = 0; j < nv[r]; ++j) {
        // <= 0 (but for the rounding of f x - mr at the maximum): mr is the row's max
        const T e = vexp_nonpos(f * row[j] - mr);
        row[j] = e;
        sum += e;
      }
      rsum[r] = T(1) / sum;
      if (lse != nullptr) lse[(r0 + r) * lse_step] = mr + std::log(sum);
    }
    for (int64_t r = 0; r < g; ++r) {
      T* row = S + (r0 + r) * lds;
      if (inv != nullptr)
        inv[r0 + r] = rsum[r];
      else
        for (int64_t j = 0; j < nv[r]; ++j) row[j] *= rsum[r];
      for (int64_t j = nv[r]; j < width; ++j) row[j] = T(0);
    }
  }
}

// P for rows [i0, i0 + rows) again, in place in S (rows lds apart, holding q kᵀ for the
// visible keys), from each row's log-sum-exp (rows lse_step apart):
//   P_ij = e^(s S_ij - lse_i),  lse_i = log Σ_j e^(s S_ij)
// (FlashAttention's recomputation, Dao et al. 2022, §3.1), the softmax in one pass: lse_i is
// at least every s S_ij of its row, so the exponent is at most 0 (or a rounding above).
// Masked keys up to vis get exact zeros, as softmax_rows writes them.
template <class T>
void weights_from_lse(T* S, int64_t lds, const T* lse, int64_t lse_step, int64_t i0,
                      int64_t rows, int64_t Tk, int64_t vis, bool causal, T s) {
  for (int64_t r = 0; r < rows; ++r) {
    T* row = S + r * lds;
    const T l = lse[r * lse_step];
    const int64_t n = visible(i0 + r, Tk, causal);
#pragma omp simd
    for (int64_t j = 0; j < n; ++j) row[j] = vexp_nonpos(row[j] * s - l);
    std::fill(row + n, row + vis, T(0));
  }
}

}  // namespace

// Whether attention() should save each row's log-sum-exp rather than the weights: when all
// heads' weights take 8 MiB or more, writing them in the forward and reading them back in
// the backward costs more than forming q kᵀ and its exponentials a second time; below that,
// forming them again costs more than writing and reading them.
bool Kernels::attention_recomputes(double weight_bytes) const {
  return weight_bytes >= double(8 << 20);
}

// Products in bfloat16 (Products) as well as in the operands' own dtype.
bool Kernels::attention_computes(DType compute) const {
  return compute == kFloat32 || compute == kBFloat16;
}

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] (any strides) -> out [*, Tq, hv] (unit column
// stride), and for backward att: the softmax weights [*, Tq, Tk] contiguous, or only each
// row's log-sum-exp lse [*, Tq] (att with one dim fewer than q; see weights_from_lse):
//   S = q kᵀ · scale;  causal: S[i][j] = -inf for j > i;  P = softmax_rows(S);
//   out = dropout(P) v  (dropout_p = 0: out = P v).
// In blocks of query rows (block_rows), each a work item of its own. A block's scores
// are formed where P goes in att, or, when att's rows lie 4 KiB apart (see scratch_pitch)
// or att is lse, in a padded scratch (normalized into att at the end, unless att is lse). Causal
// rows only visit j ≤ i: the masked entries of P in the block's diagonal block are written
// as exact zeros, for the products with v (here) and dout (backward) to read; those right
// of it, which nothing reads, are not written: their zeros were half of att's bytes written
// once more. The dropped weights D live in a per-thread scratch; backward draws them again
// from P and the key. compute: the products' dtype (Products).
void Kernels::attention(const KTensor& out, const KTensor& att, const KTensor& q,
                        const KTensor& k, const KTensor& v, double scale, bool causal,
                        double dropout_p, uint64_t dropout_key, DType compute) {
  const int64_t Tq = q.shape[q.shape.size() - 2], hs = q.shape.back();
  const int64_t Tk = k.shape[k.shape.size() - 2], hv = v.shape.back();
  const bool lse_only = att.shape.size() + 1 == q.shape.size();
  const KTensor saved = saved_rows(att, q.shape.size());
  const auto heads = head_offsets<5>({&out, &saved, &q, &k, &v});
  const RC sq = rc(q), sk = rc(k), sv = rc(v), so = rc(out);
  const int64_t lse_step = rc(saved).r;
  dispatch_floating(q.dtype, [&](auto z) {
    using T = decltype(z);
    const Products<T> mm = products_in<T>(compute, "attention");
    const T s = T(scale);
    const int64_t ld = scratch_pitch<T>(Tk);
    const bool in_att = ld == Tk && !lse_only;  // scores formed in att itself
    const int64_t block = block_rows<T>(ld);
    const Triangle lower_a = causal ? Triangle::kLowerA : Triangle::kNone;
    // Work items are (head, block) pairs: blocks write disjoint rows of out and att, so one
    // head's blocks can go to different threads (a Linformer head is a call of its own).
    const int64_t nb = (Tq + block - 1) / block;
    parallel_for(0, int64_t(heads.size()) * nb, 1, [&](int64_t w0, int64_t w1) {
      const int64_t rows_max = std::min(block, Tq);
      Scratch<T> S(*this, in_att ? 0 : size_t(rows_max * ld));
      Scratch<T> D(*this, dropout_p > 0 ? size_t(rows_max * ld) : 0);
      std::vector<T> inv(in_att ? 0 : size_t(rows_max));  // 1 / each row's sum of e^x
      for (int64_t w = w0; w < w1; ++w) {
        const auto& off = heads[size_t(w / nb)];
        const int64_t at = (w / nb) * Tq * Tk;  // the head's first index in dropout's order
        T* P = lse_only ? nullptr : saved.ptr<T>() + off[1];
        const T* pk = k.ptr<T>() + off[3];
        const T* pv = v.ptr<T>() + off[4];
        const int64_t i0 = block_in_order(w % nb, nb) * block;
        const int64_t rows = std::min(block, Tq - i0);
        const Keys keys = keys_of(i0, i0 + rows, Tk, causal);
        const auto [rect, vis] = keys;
        const T* qb = q.ptr<T>() + off[2] + i0 * sq.r;
        T* ob = out.ptr<T>() + off[0] + i0 * so.r;
        T* Sb = in_att ? P + i0 * Tk : S.data();
        const int64_t lds = in_att ? Tk : ld;
        block_scores(mm, qb, sq, pk, sk, rows, hs, keys, causal, Sb, lds);  // S = q kᵀ
        // In the scratch the weights stay unnormalized (E), and out and att are scaled
        // instead: out = P v = inv ⊙ (E v).
        softmax_rows(Sb, lds, i0, rows, Tk, causal, s, vis,
                     lse_only ? saved.ptr<T>() + off[1] + i0 * lse_step : nullptr, lse_step,
                     in_att ? nullptr : inv.data());
        // out = P v (or D v) over the visible keys; the diagonal block's P is zero above
        // its diagonal, so row i sums j <= i only.
        const auto [W, ldw] = block_weights(D.data(), ld, Sb, lds, at, i0, rows, Tk, vis,
                                            causal, dropout_p, dropout_key, false);
        mm(rows, hv, rect, W, ldw, 1, pv, sv.r, sv.c, ob, so.r);
        mm(rows, hv, vis - rect, W + rect, ldw, 1, pv + rect * sv.r, sv.r, sv.c, ob, so.r, lower_a,
           /*accumulate=*/true);
        if (!in_att) {
          for (int64_t r = 0; r < rows; ++r) {
            T* o = ob + r * so.r;
            for (int64_t c = 0; c < hv; ++c) o[c] *= inv[size_t(r)];
          }
          if (!lse_only)
            for (int64_t r = 0; r < rows; ++r) {
              const T* e = Sb + r * ld;
              T* p = P + (i0 + r) * Tk;
              const T ir = inv[size_t(r)];
              for (int64_t j = 0; j < vis; ++j) p[j] = e[j] * ir;
            }
        }
      }
    });
  });
}

// dq, dk, dv: shaped like q, k, v, unit column stride; dout [*, Tq, hv] any strides; att as
// the forward saved it: P, or lse, from which each block's P is formed again.
// The derivative of ops/attention.cpp (head comment, beside AttentionBackward):
//   dv = Pᵀ dout;  dP = dout vᵀ;  dS = P ⊙ (dP - rowsum(dP ⊙ P))  (the softmax backward);
//   dq = dS k · scale;  dk = dSᵀ q · scale.
// With dropout, out = D v for D = P ⊙ m / (1 - p): dv = Dᵀ dout, and dP = (dout vᵀ) ⊙ m / (1 - p),
// the mask applied to the gradient as dropout's backward does; D and m drawn again from
// P and the key.
// In blocks of query rows, as the forward: a block's dP and dS live in a scratch that
// stays in L2, its dq rows are final, and dk, dv gather every block's share:
//   dv += D_blockᵀ dout_block,  dk += dS_blockᵀ q_block · scale.
// Masked entries have P = 0, so their dS is 0 and they pass no gradient. Causal: a block's
// products split into the keys every row sees and the diagonal block, whose triangle of
// zeros the GEMM skips (Pᵀ and dSᵀ are zero below its diagonal, P and dS above it).
// compute: the products' dtype, as the forward's (Products).
void Kernels::attention_backward(const KTensor& dq, const KTensor& dk, const KTensor& dv,
                                 const KTensor& dout, const KTensor& q, const KTensor& k,
                                 const KTensor& v, const KTensor& att, double scale,
                                 bool causal, double dropout_p, uint64_t dropout_key,
                                 DType compute) {
  const int64_t Tq = q.shape[q.shape.size() - 2], hs = q.shape.back();
  const int64_t Tk = k.shape[k.shape.size() - 2], hv = v.shape.back();
  const bool lse_only = att.shape.size() + 1 == q.shape.size();
  const KTensor saved = saved_rows(att, q.shape.size());
  const auto heads = head_offsets<8>({&dq, &dk, &dv, &dout, &q, &k, &v, &saved});
  const RC sq = rc(q), sk = rc(k), sv = rc(v), sd = rc(dout);
  const int64_t lse_step = rc(saved).r;
  const int64_t ldq = rc(dq).r, ldk_out = rc(dk).r, ldv_out = rc(dv).r;
  dispatch_floating(q.dtype, [&](auto z) {
    using T = decltype(z);
    const Products<T> mm = products_in<T>(compute, "attention_backward");
    const T s = T(scale);
    const Triangle lower_c = causal ? Triangle::kLowerC : Triangle::kNone;
    const Triangle lower_a = causal ? Triangle::kLowerA : Triangle::kNone;
    const Triangle upper_a = causal ? Triangle::kUpperA : Triangle::kNone;
    const int64_t ld = scratch_pitch<T>(Tk);  // dS's, D's and a formed P's row pitch
    const bool copy_p = !lse_only && ld != Tk;  // P's rows 4 KiB apart in att
    const int64_t block = block_rows<T>(ld);
    const int64_t nh = int64_t(heads.size()), nb = (Tq + block - 1) / block;
    const int64_t G = backward_groups(nh, nb);
    // Group g > 0 of head h gathers into its own dk [Tk, hs] and dv [Tk, hv], rows unpadded.
    const int64_t part = Tk * (hs + hv);
    Scratch<T> partials(*this, size_t(nh * (G - 1) * part));
    parallel_for(0, nh * G, 1, [&](int64_t w0, int64_t w1) {
      const int64_t rows_max = std::min(block, Tq);
      Scratch<T> dS(*this, size_t(rows_max * ld));
      Scratch<T> D(*this, dropout_p > 0 || copy_p ? size_t(rows_max * ld) : 0);
      Scratch<T> formed(*this, lse_only ? size_t(rows_max * ld) : 0);  // P from lse
      const uint32_t threshold = dropout_threshold(dropout_p);
      const T keep_scale = dropout_p >= 1 ? T(0) : T(1.0 / (1.0 - dropout_p));
      for (int64_t w = w0; w < w1; ++w) {
        const int64_t h = w / G, g = w % G;
        const auto& off = heads[size_t(h)];
        const int64_t at = h * Tq * Tk;  // the head's first index in dropout's order
        const T* pk = k.ptr<T>() + off[5];
        const T* pv = v.ptr<T>() + off[6];
        T* const own = partials.data() + (h * (G - 1) + g - 1) * part;
        T* dkh = g == 0 ? dk.ptr<T>() + off[1] : own;
        T* dvh = g == 0 ? dv.ptr<T>() + off[2] : own + Tk * hs;
        const int64_t ldk = g == 0 ? ldk_out : hs, ldv = g == 0 ? ldv_out : hv;
        // dk and dv gather the blocks' shares. The group's first block writes their rows
        // [0, vis) (its products overwrite: add is false), so only the rows past them start
        // at zero: none without a mask, and none for the laptop GPT's single block of 64
        // rows, which would otherwise zero each head's rows one call of 128 bytes at a time.
        const int64_t first_vis =
            g < nb ? keys_of(g * block, std::min(g * block + block, Tq), Tk, causal).vis : 0;
        for (int64_t j = first_vis; j < Tk; ++j) {
          std::fill(dkh + j * ldk, dkh + j * ldk + hs, T(0));
          std::fill(dvh + j * ldv, dvh + j * ldv + hv, T(0));
        }
        for (int64_t b = g; b < nb; b += G) {
          const bool add = b != g;
          const int64_t i0 = b * block;
          const int64_t rows = std::min(block, Tq - i0);
          const Keys keys = keys_of(i0, i0 + rows, Tk, causal);
          const auto [rect, vis] = keys;
          const T* qb = q.ptr<T>() + off[4] + i0 * sq.r;
          // The block's P [rows, vis] (rows ldp apart): in att, or formed again from lse as
          // the forward formed it.
          const T* Pb = lse_only ? formed.data() : saved.ptr<T>() + off[7] + i0 * Tk;
          const int64_t ldp = lse_only ? ld : Tk;
          if (lse_only) {
            block_scores(mm, qb, sq, pk, sk, rows, hs, keys, causal, formed.data(), ld);
            weights_from_lse(formed.data(), ld, saved.ptr<T>() + off[7] + i0 * lse_step, lse_step,
                             i0, rows, Tk, vis, causal, s);
          }
          const T* db = dout.ptr<T>() + off[3] + i0 * sd.r;
          T* dqb = dq.ptr<T>() + off[0] + i0 * ldq;
          T* dSb = dS.data();
          // dv [vis, hv] += Pᵀ [vis, rows] @ dout [rows, hv]  (Dᵀ with dropout). P's rows
          // 4 KiB apart are first copied to the padded scratch: the GEMM reads that where it
          // lies, and would otherwise pack Pᵀ column by column from rows that evict each
          // other in L1.
          const auto [W, ldw] = block_weights(D.data(), ld, Pb, ldp, at, i0, rows, Tk, vis,
                                              causal, dropout_p, dropout_key, copy_p);
          mm(rect, hv, rows, W, 1, ldw, db, sd.r, sd.c, dvh, ldv, Triangle::kNone, add);
          mm(vis - rect, hv, rows, W + rect, 1, ldw, db, sd.r, sd.c, dvh + rect * ldv, ldv, upper_a,
             add);
          // dP [rows, vis] = dout [rows, hv] @ vᵀ [hv, vis] (then masked as D was), then dS in
          // place, times the scale
          mm(rows, rect, hv, db, sd.r, sd.c, pv, sv.c, sv.r, dSb, ld);
          mm(rows, vis - rect, hv, db, sd.r, sd.c, pv + rect * sv.r, sv.c, sv.r, dSb + rect, ld,
             lower_c);
          if (dropout_p > 0)
            for (int64_t r = 0; r < rows; ++r)
              dropout_span<T>(dSb + r * ld, dSb + r * ld, visible(i0 + r, Tk, causal),
                              uint64_t(at + (i0 + r) * Tk), dropout_key, threshold,
                              keep_scale);
          // Rows in groups, each step for the whole group first (see softmax_rows).
          constexpr int64_t kGroup = 4;
          for (int64_t r0 = 0; r0 < rows; r0 += kGroup) {
            const int64_t g = std::min(kGroup, rows - r0);
            T dot[kGroup];
            for (int64_t r = 0; r < g; ++r) {
              const T* d = dSb + (r0 + r) * ld;
              const T* p = Pb + (r0 + r) * ldp;
              const int64_t n = visible(i0 + r0 + r, Tk, causal);
              T dr = 0;
#pragma omp simd reduction(+ : dr)
              for (int64_t j = 0; j < n; ++j) dr += d[j] * p[j];
              dot[r] = dr;
            }
            for (int64_t r = 0; r < g; ++r) {
              T* d = dSb + (r0 + r) * ld;
              const T* p = Pb + (r0 + r) * ldp;
              // Causal: keys n <= j < vis are masked; their dS is 0, written here because
              // the products below read it and dP was not formed there.
              const int64_t n = visible(i0 + r0 + r, Tk, causal);
              for (int64_t j = 0; j < n; ++j) d[j] = p[j] * (d[j] - dot[r]) * s;
              for (int64_t j = n; j < vis; ++j) d[j] = T(0);
            }
          }
          // dq [rows, hs] = dS [rows, vis] @ k [vis, hs]
          mm(rows, hs, rect, dSb, ld, 1, pk, sk.r, sk.c, dqb, ldq);
          mm(rows, hs, vis - rect, dSb + rect, ld, 1, pk + rect * sk.r, sk.r, sk.c, dqb, ldq,
             lower_a, true);
          // dk [vis, hs] += dSᵀ [vis, rows] @ q [rows, hs]
          mm(rect, hs, rows, dSb, 1, ld, qb, sq.r, sq.c, dkh, ldk, Triangle::kNone, add);
          mm(vis - rect, hs, rows, dSb + rect, 1, ld, qb, sq.r, sq.c, dkh + rect * ldk, ldk,
             upper_a, add);
        }
      }
    });
    if (G == 1) return;
    // dk and dv = group 0's share + group 1's + ..., in that order.
    parallel_for(0, nh, 1, [&](int64_t h0, int64_t h1) {
      for (int64_t h = h0; h < h1; ++h) {
        T* dkh = dk.ptr<T>() + heads[size_t(h)][1];
        T* dvh = dv.ptr<T>() + heads[size_t(h)][2];
        for (int64_t g = 1; g < G; ++g) {
          const T* own = partials.data() + (h * (G - 1) + g - 1) * part;
          for (int64_t j = 0; j < Tk; ++j) {
            for (int64_t c = 0; c < hs; ++c) dkh[j * ldk_out + c] += own[j * hs + c];
            for (int64_t c = 0; c < hv; ++c) dvh[j * ldv_out + c] += own[Tk * hs + j * hv + c];
          }
        }
      }
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
