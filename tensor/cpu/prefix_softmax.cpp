// ELiTA's prefix softmax on the CPU (see tensor/backend.h; ops/prefix_softmax_scan.cpp holds
// the op, its derivative and the same math as public ops). Row i of a line (b, h) is the
// softmax over the logits {r_i + s_j : j ≤ i} ∪ {d_i} of the values {v_j} ∪ {v_i}, kept as
// the prefix sums of RWKV-4's WKV kernel (BlinkDL/RWKV-LM, wkv_cuda.cu) under the running
// maximum m_i = max(s_0 .. s_i):
//   S_i = e^{m_{i−1} − m_i} S_{i−1} + e^{s_i − m_i} v_i,   Z_i likewise with 1 for v_i
//   y_i = (α_i S_i + β_i v_i) / den_i,   den_i = α_i Z_i + β_i,
//   α_i = e^{r_i + m_i − M_i},  β_i = e^{d_i − M_i},  M_i = max(r_i + m_i, d_i)
// Every exponent is ≤ 0 and den_i ≥ 1. As public ops this is some twenty passes over
// [B, H, N] or [B, H, N, A]; here each line is read and written once: a scalar pass for m, a
// vectorized pass for the exponentials, and the scan itself, one step per row, along A.
//
// The backward keeps a_i = α_i / den_i and b_i = β_i / den_i from the forward: the
// probability of key j in row i is p_ij = e^{s_j − m_i} a_i, and b_i is the diagonal's. With
// g_i = ∂L/∂y_i, the softmax's derivative summed over the rows i ≥ j that see key j is a
// scan back along N with the same decays:
//   G_j = a_j g_j + e^{m_j − m_{j+1}} G_{j+1},   c_j = a_j (g_j·y_j) + e^{m_j − m_{j+1}} c_{j+1}
//   ds_j = e^{s_j − m_j} (v_j·G_j − c_j),   dv_j = e^{s_j − m_j} G_j + b_j g_j
//   dd_i = b_i (g_i·v_i − g_i·y_i),   dr_i = −dd_i
// (dr = −dd because adding one constant to r_i and d_i leaves row i unchanged.)
// Lines are independent and go to threads whole; within a line nothing depends on the
// thread count.
#include <algorithm>
#include <cmath>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/fast_math.h"
#include "tensor/cpu/thread_pool.h"
#include "tensor/error.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// A [B, H, N] operand (or [B, H, N, A] without its unit-stride last dim) as a pointer and the
// strides of its first three dims.
template <class T>
struct Lines {
  T* p;
  int64_t sb, sh, sn;
  explicit Lines(const KTensor& k)
      : p(static_cast<T*>(k.data)), sb(k.strides[0]), sh(k.strides[1]), sn(k.strides[2]) {}
  T* line(int64_t b, int64_t h) const { return p + b * sb + h * sh; }
};

// Runs line(b, h) for every (b, h) of [B, H], whole lines to threads; a thread gets about
// 32K elements of work at least.
template <class Line>
void for_each_line(int64_t B, int64_t H, int64_t N, int64_t A, const Line& line) {
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 15) / std::max<int64_t>(1, N * (A + 4)));
  parallel_for(0, B * H, grain, [&](int64_t l0, int64_t l1) {
    for (int64_t l = l0; l < l1; ++l) line(l / H, l % H);
  });
}

// The line's decays and key weights, both ≤ 1, for N ≥ 1: decay[i] = e^{m_{i−1} − m_i}
// (decay[0] = 1) and w[i] = e^{s_i − m_i}, w holding s_i (at unit stride) on entry.
template <class T>
void decays_and_weights(int64_t N, const T* m, T* decay, T* w) {
  decay[0] = 1;
#pragma omp simd
  for (int64_t i = 1; i < N; ++i) decay[i] = vexp_nonpos<T>(m[i - 1] - m[i]);
#pragma omp simd
  for (int64_t i = 0; i < N; ++i) w[i] = vexp_nonpos<T>(w[i] - m[i]);
}

}  // namespace

// y [B, H, N, A] (unit stride in A), m, a, b [B, H, N] contiguous; s, d, r [B, H, N] any
// strides, v [B, H, N, A] (unit stride in A)
void Kernels::prefix_softmax(const KTensor& y, const KTensor& m, const KTensor& a,
                             const KTensor& b, const KTensor& s, const KTensor& d,
                             const KTensor& r, const KTensor& v) {
  const int64_t B = v.shape[0], H = v.shape[1], N = v.shape[2], A = v.shape[3];
  ATTIC_CHECK(y.strides[3] == 1 && v.strides[3] == 1, "prefix_softmax: y and v need unit stride "
              "in A, got strides ", str(y.strides), " and ", str(v.strides));
  if (N == 0) return;
  dispatch_floating(v.dtype, [&](auto z) {
    using T = decltype(z);
    const Lines<T> Y(y), Mo(m), Ao(a), Bo(b);
    const Lines<const T> Si(s), Di(d), Ri(r), V(v);
    for_each_line(B, H, N, A, [&](int64_t bi, int64_t hi) {
      // Scratch: the line's decays e^{m_{i−1} − m_i}, weights e^{s_i − m_i}, α, β, and S [A].
      Scratch<T> buf(*this, size_t(4 * N + A));
      T *decay = buf.data(), *w = decay + N, *al = w + N, *be = al + N, *S = be + N;
      const T *sl = Si.line(bi, hi), *dl = Di.line(bi, hi), *rl = Ri.line(bi, hi);
      T* ml = Mo.line(bi, hi);
      // m_i: the running maximum, one dependent step after another. (w, α, β hold s, r, d
      // copied to unit stride for the vectorized pass that follows.)
      T run = sl[0];
      for (int64_t i = 0; i < N; ++i) {
        w[i] = sl[i * Si.sn];
        al[i] = rl[i * Ri.sn];
        be[i] = dl[i * Di.sn];
        run = std::max(run, w[i]);
        ml[i] = run;
      }
      decays_and_weights(N, ml, decay, w);
#pragma omp simd
      for (int64_t i = 0; i < N; ++i) {
        const T rm = al[i] + ml[i], Mi = rm > be[i] ? rm : be[i];
        al[i] = vexp_nonpos<T>(rm - Mi);
        be[i] = vexp_nonpos<T>(be[i] - Mi);
      }
      const T* vl = V.line(bi, hi);
      T *yl = Y.line(bi, hi), *a_out = Ao.line(bi, hi), *b_out = Bo.line(bi, hi);
      T Z = 0;
      for (int64_t k = 0; k < A; ++k) S[k] = 0;
      for (int64_t i = 0; i < N; ++i) {
        const T* vi = vl + i * V.sn;
        T* yi = yl + i * Y.sn;
        const T dec = decay[i], wi = w[i];
        Z = dec * Z + wi;
        const T inv = T(1) / (al[i] * Z + be[i]);
        const T ai = al[i] * inv, bi_ = be[i] * inv;
        a_out[i] = ai;
        b_out[i] = bi_;
#pragma omp simd
        for (int64_t k = 0; k < A; ++k) {
          S[k] = dec * S[k] + wi * vi[k];
          yi[k] = ai * S[k] + bi_ * vi[k];
        }
      }
    });
  });
}

// ds, dd, dr [B, H, N] contiguous, dv [B, H, N, A] (unit stride in A); g, v, y [B, H, N, A]
// (unit stride in A), s [B, H, N] any strides, m, a, b [B, H, N] contiguous (the forward's)
void Kernels::prefix_softmax_backward(const KTensor& ds, const KTensor& dd, const KTensor& dr,
                                      const KTensor& dv, const KTensor& g, const KTensor& s,
                                      const KTensor& v, const KTensor& y, const KTensor& m,
                                      const KTensor& a, const KTensor& b) {
  const int64_t B = v.shape[0], H = v.shape[1], N = v.shape[2], A = v.shape[3];
  ATTIC_CHECK(dv.strides[3] == 1 && g.strides[3] == 1 && v.strides[3] == 1 && y.strides[3] == 1,
              "prefix_softmax_backward: dv, g, v and y need unit stride in A, got strides ",
              str(dv.strides), ", ", str(g.strides), ", ", str(v.strides), " and ", str(y.strides));
  if (N == 0) return;
  dispatch_floating(v.dtype, [&](auto z) {
    using T = decltype(z);
    const Lines<T> DS(ds), DD(dd), DR(dr), DV(dv);
    const Lines<const T> G(g), Si(s), V(v), Y(y), Mi(m), Ai(a), Bi(b);
    for_each_line(B, H, N, A, [&](int64_t bi, int64_t hi) {
      // Scratch: e^{m_{j−1} − m_j} and e^{s_j − m_j} of the line, and G [A].
      Scratch<T> buf(*this, size_t(2 * N + A));
      T *decay = buf.data(), *w = decay + N, *Gs = w + N;
      const T *sl = Si.line(bi, hi), *ml = Mi.line(bi, hi);
      for (int64_t j = 0; j < N; ++j) w[j] = sl[j * Si.sn];
      decays_and_weights(N, ml, decay, w);
      const T *gl = G.line(bi, hi), *vl = V.line(bi, hi), *yl = Y.line(bi, hi);
      const T *al = Ai.line(bi, hi), *bl = Bi.line(bi, hi);
      T *dsl = DS.line(bi, hi), *ddl = DD.line(bi, hi), *drl = DR.line(bi, hi);
      T* dvl = DV.line(bi, hi);
      T c = 0;
      for (int64_t k = 0; k < A; ++k) Gs[k] = 0;
      for (int64_t j = N - 1; j >= 0; --j) {
        const T *gj = gl + j * G.sn, *vj = vl + j * V.sn, *yj = yl + j * Y.sn;
        T* dvj = dvl + j * DV.sn;
        // G_{j+1}'s decay to j is e^{m_j − m_{j+1}} (0 past the end, where G is 0 anyway)
        const T dec = j + 1 < N ? decay[j + 1] : T(0);
        const T aj = al[j], bj = bl[j], wj = w[j];
        T gy = 0, gv = 0, vG = 0;
#pragma omp simd reduction(+ : gy, gv, vG)
        for (int64_t k = 0; k < A; ++k) {
          gy += gj[k] * yj[k];
          gv += gj[k] * vj[k];
          Gs[k] = dec * Gs[k] + aj * gj[k];
          vG += vj[k] * Gs[k];
          dvj[k] = wj * Gs[k] + bj * gj[k];
        }
        c = dec * c + aj * gy;
        dsl[j * DS.sn] = wj * (vG - c);
        ddl[j * DD.sn] = bj * (gv - gy);
        drl[j * DR.sn] = -ddl[j * DD.sn];
      }
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
