// Fused scaled dot-product attention on the CPU, forward and backward, one head at a time.
// The composed form (matmul, scale, masked_fill, softmax, matmul) makes five passes over
// the [T, T] scores and keeps four of them alive for backward; here each head's scores
// live in a small scratch matrix, the mask is the loop bound, and only the softmax weights
// P are kept. tests/tensor/cpu/test_attention.cpp checks this against attention_naive
// (tensor/cpu/attention.h), tests/ops/test_attention.cpp against the composed ops.
#include <algorithm>
#include <cmath>
#include <vector>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/dropout.h"
#include "tensor/cpu/fast_math.h"
#include "tensor/cpu/gemm.h"
#include "tensor/cpu/strided.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu {

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

}  // namespace

namespace {

// D = dropout(P) for one head: rows of P [Tq, Tk] -> D [Tq, Tk]. P starts at element `at` of
// the contiguous att [*, Tq, Tk], and (i, j) is masked as att's element at + i Tk + j: the
// mask the composed path (ops/dropout.cpp on P) draws with the same key. Causal: only
// j <= i is drawn; the rest of D's row is zero, as P's is.
template <class T>
void dropout_head(T* D, const T* P, int64_t at, int64_t Tq, int64_t Tk, bool causal, double p,
                  uint64_t key) {
  const uint32_t threshold = dropout_threshold(p);
  const T keep_scale = p >= 1 ? T(0) : T(1.0 / (1.0 - p));
  for (int64_t i = 0; i < Tq; ++i) {
    const int64_t n = causal ? std::min(i + 1, Tk) : Tk;
    dropout_span<T>(D + i * Tk, P + i * Tk, n, uint64_t(at + i * Tk), key, threshold, keep_scale);
    std::fill(D + i * Tk + n, D + (i + 1) * Tk, T(0));
  }
}

}  // namespace

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] (any strides) -> out [*, Tq, hv] (unit column
// stride), att [*, Tq, Tk] contiguous (the softmax weights, saved for backward):
//   S = q kᵀ · scale;  causal: S[i][j] = -inf for j > i;  P = softmax_rows(S);
//   out = dropout(P) v  (dropout_p = 0: out = P v).
// Causal rows only visit j ≤ i: the masked entries of P are written as exact zeros. The
// dropped weights D live in a per-thread scratch matrix; backward draws them again from P
// and the key.
void CpuBackend::attention(const KTensor& out, const KTensor& att, const KTensor& q,
                           const KTensor& k, const KTensor& v, double scale, bool causal,
                           double dropout_p, uint64_t dropout_key) {
  const int64_t Tq = q.shape[q.shape.size() - 2], hs = q.shape.back();
  const int64_t Tk = k.shape[k.shape.size() - 2], hv = v.shape.back();
  const auto heads = head_offsets<5>({&out, &att, &q, &k, &v});
  const RC sq = rc(q), sk = rc(k), sv = rc(v), so = rc(out);
  dispatch_floating(q.dtype, [&](auto z) {
    using T = decltype(z);
    const T s = T(scale);
    parallel_for(0, int64_t(heads.size()), 1, [&](int64_t h0, int64_t h1) {
      Scratch<T> D(*this, dropout_p > 0 ? size_t(Tq * Tk) : 0);
      for (int64_t h = h0; h < h1; ++h) {
        const auto& off = heads[size_t(h)];
        T* P = att.ptr<T>() + off[1];
        // S = q kᵀ into P's memory: kᵀ is k read with its strides swapped. Causal: only
        // j <= i is computed (whole tiles above the diagonal are skipped, never read below).
        const Triangle lower_c = causal ? Triangle::kLowerC : Triangle::kNone;
        const Triangle lower_a = causal ? Triangle::kLowerA : Triangle::kNone;
        gemm<T>(Tq, Tk, hs, q.ptr<T>() + off[2], sq.r, sq.c, k.ptr<T>() + off[3], sk.c, sk.r, P,
                Tk, lower_c);
        // softmax over the visible keys of each row, max subtracted (see softmax.cpp).
        // Keys j < n are visible. The loops run to nv, n rounded up to whole vectors of 16,
        // with the masked lanes set to -inf (so e^(-inf - m) = 0 exactly): a short causal
        // row then costs one or two vector steps, not a scalar tail of up to 15.
        // Each row is a chain of dependent steps (max, then e^x and its sum, then 1 / sum),
        // each ending in a horizontal reduction; rows go in groups of kGroup, every step
        // done for the whole group before the next, so that the chains of different rows
        // overlap in the CPU instead of one waiting on the next (2x faster at T = 64).
        constexpr int64_t kGroup = 4;
        for (int64_t i0 = 0; i0 < Tq; i0 += kGroup) {
          const int64_t g = std::min(kGroup, Tq - i0);
          int64_t n[kGroup], nv[kGroup];
          T m[kGroup], inv[kGroup];
          for (int64_t r = 0; r < g; ++r) {
            T* row = P + (i0 + r) * Tk;
            n[r] = causal ? std::min(i0 + r + 1, Tk) : Tk;
            nv[r] = std::min(Tk, (n[r] + 15) / 16 * 16);
            // Scale, and mask, in loops of their own: a condition inside would keep them
            // scalar. The (causally skipped) entries past n are written, never read.
            for (int64_t j = 0; j < n[r]; ++j) row[j] *= s;
            for (int64_t j = n[r]; j < nv[r]; ++j) row[j] = T(-INFINITY);
            T mr = -INFINITY;
            // (the ternary vectorizes where std::max does not: see tensor/cpu/softmax.cpp)
#pragma omp simd reduction(max : mr)
            for (int64_t j = 0; j < nv[r]; ++j) mr = mr > row[j] ? mr : row[j];
            m[r] = mr;
          }
          for (int64_t r = 0; r < g; ++r) {
            T* row = P + (i0 + r) * Tk;
            const T mr = m[r];
            T sum = 0;
#pragma omp simd reduction(+ : sum)
            for (int64_t j = 0; j < nv[r]; ++j) {
              const T e = vexp_nonpos(row[j] - mr);  // <= 0: mr is the row's max
              row[j] = e;
              sum += e;
            }
            inv[r] = T(1) / sum;
          }
          for (int64_t r = 0; r < g; ++r) {
            T* row = P + (i0 + r) * Tk;
            for (int64_t j = 0; j < nv[r]; ++j) row[j] *= inv[r];
            for (int64_t j = nv[r]; j < Tk; ++j) row[j] = T(0);
          }
        }
        // out = P v (or D v); causal: P(i, j) = 0 for j > i, so row i sums j <= i only.
        const T* W = P;
        if (dropout_p > 0) {
          dropout_head(D.data(), P, off[1], Tq, Tk, causal, dropout_p, dropout_key);
          W = D.data();
        }
        gemm<T>(Tq, hv, Tk, W, Tk, 1, v.ptr<T>() + off[4], sv.r, sv.c, out.ptr<T>() + off[0],
                so.r, lower_a);
      }
    });
  });
}

// dq, dk, dv: shaped like q, k, v, unit column stride; dout [*, Tq, hv] any strides; att = P.
// The derivative of ops/attention.cpp (head comment, beside AttentionBackward):
//   dv = Pᵀ dout;  dP = dout vᵀ;  dS = P ⊙ (dP - rowsum(dP ⊙ P))  (the softmax backward);
//   dq = dS k · scale;  dk = dSᵀ q · scale.
// With dropout, out = D v for D = P ⊙ m / (1 - p): dv = Dᵀ dout, and dP = (dout vᵀ) ⊙ m / (1 - p),
// the mask applied to the gradient as dropout's backward does; D and m drawn again from
// P and the key.
// Masked entries have P = 0, so their dS is 0 and they pass no gradient. Causal: the four
// products skip the triangles that hold those zeros (Pᵀ and dSᵀ are zero below the diagonal,
// P and dS above it), and dP is only formed where j <= i.
void CpuBackend::attention_backward(const KTensor& dq, const KTensor& dk, const KTensor& dv,
                                    const KTensor& dout, const KTensor& q, const KTensor& k,
                                    const KTensor& v, const KTensor& att, double scale,
                                    bool causal, double dropout_p, uint64_t dropout_key) {
  const int64_t Tq = q.shape[q.shape.size() - 2], hs = q.shape.back();
  const int64_t Tk = k.shape[k.shape.size() - 2], hv = v.shape.back();
  const auto heads = head_offsets<8>({&dq, &dk, &dv, &dout, &q, &k, &v, &att});
  const RC sq = rc(q), sk = rc(k), sv = rc(v), sd = rc(dout);
  const int64_t ldq = rc(dq).r, ldk = rc(dk).r, ldv = rc(dv).r;
  dispatch_floating(q.dtype, [&](auto z) {
    using T = decltype(z);
    const T s = T(scale);
    const Triangle lower_c = causal ? Triangle::kLowerC : Triangle::kNone;
    const Triangle lower_a = causal ? Triangle::kLowerA : Triangle::kNone;
    const Triangle upper_a = causal ? Triangle::kUpperA : Triangle::kNone;
    parallel_for(0, int64_t(heads.size()), 1, [&](int64_t h0, int64_t h1) {
      Scratch<T> dS(*this, size_t(Tq * Tk));
      Scratch<T> D(*this, dropout_p > 0 ? size_t(Tq * Tk) : 0);
      const uint32_t threshold = dropout_threshold(dropout_p);
      const T keep_scale = dropout_p >= 1 ? T(0) : T(1.0 / (1.0 - dropout_p));
      for (int64_t h = h0; h < h1; ++h) {
        const auto& off = heads[size_t(h)];
        const T* P = att.ptr<T>() + off[7];
        const T* pq = q.ptr<T>() + off[4];
        const T* pk = k.ptr<T>() + off[5];
        const T* pv = v.ptr<T>() + off[6];
        const T* pd = dout.ptr<T>() + off[3];
        // dv [Tk, hv] = Pᵀ [Tk, Tq] @ dout [Tq, hv]  (Dᵀ with dropout)
        const T* W = P;
        if (dropout_p > 0) {
          dropout_head(D.data(), P, off[7], Tq, Tk, causal, dropout_p, dropout_key);
          W = D.data();
        }
        gemm<T>(Tk, hv, Tq, W, 1, Tk, pd, sd.r, sd.c, dv.ptr<T>() + off[2], ldv, upper_a);
        // dP [Tq, Tk] = dout [Tq, hv] @ vᵀ [hv, Tk] (then masked as D was), then dS in place,
        // times the scale
        gemm<T>(Tq, Tk, hv, pd, sd.r, sd.c, pv, sv.c, sv.r, dS.data(), Tk, lower_c);
        if (dropout_p > 0)
          for (int64_t i = 0; i < Tq; ++i)
            dropout_span<T>(dS.data() + i * Tk, dS.data() + i * Tk,
                            causal ? std::min(i + 1, Tk) : Tk, uint64_t(off[7] + i * Tk),
                            dropout_key, threshold, keep_scale);
        // Rows in groups, each step for the whole group first (see the forward).
        constexpr int64_t kGroup = 4;
        for (int64_t i0 = 0; i0 < Tq; i0 += kGroup) {
          const int64_t g = std::min(kGroup, Tq - i0);
          T dot[kGroup];
          for (int64_t r = 0; r < g; ++r) {
            const T* d = dS.data() + (i0 + r) * Tk;
            const T* p = P + (i0 + r) * Tk;
            const int64_t n = causal ? std::min(i0 + r + 1, Tk) : Tk;
            T dr = 0;
#pragma omp simd reduction(+ : dr)
            for (int64_t j = 0; j < n; ++j) dr += d[j] * p[j];
            dot[r] = dr;
          }
          for (int64_t r = 0; r < g; ++r) {
            T* d = dS.data() + (i0 + r) * Tk;
            const T* p = P + (i0 + r) * Tk;
            // Causal: keys j >= n are masked; their dS is 0, written here because the
            // products below read it and dP was not formed there.
            const int64_t n = causal ? std::min(i0 + r + 1, Tk) : Tk;
            for (int64_t j = 0; j < n; ++j) d[j] = p[j] * (d[j] - dot[r]) * s;
            for (int64_t j = n; j < Tk; ++j) d[j] = T(0);
          }
        }
        // dq [Tq, hs] = dS [Tq, Tk] @ k [Tk, hs];  dk [Tk, hs] = dSᵀ [Tk, Tq] @ q [Tq, hs]
        gemm<T>(Tq, hs, Tk, dS.data(), Tk, 1, pk, sk.r, sk.c, dq.ptr<T>() + off[0], ldq, lower_a);
        gemm<T>(Tk, hs, Tq, dS.data(), 1, Tk, pq, sq.r, sq.c, dk.ptr<T>() + off[1], ldk, upper_a);
      }
    });
  });
}

}  // namespace attic::cpu
