// LayerNorm on the CPU, forward and backward, one row of C features at a time
// (karpathy/llm.c, train_gpt2.c: layernorm_forward / layernorm_backward, generalized to
// optional w and b). Its plain reference is layer_norm_naive.h. The forward's row sums
// (mean, variance) are accumulated in double; `omp simd reduction` lets each sum run in
// vector lanes (in a fixed order, so results are reproducible) instead of one add after
// another.
#include <cmath>
#include <type_traits>
#include <vector>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

// Rows are handled in groups of this many, one step at a time for the whole group.
constexpr int64_t kGroup = 4;
// The backward keeps a group's rows of norm on the stack up to this C (4 x 1024 floats or
// doubles), else in a scratch buffer of N x C.
constexpr int64_t kMaxGroupC = 1024;
// Rows per block of the backward's partial column sums for dw and db.
constexpr int64_t kSumRows = 64;

// Asks for rows [r0, r1) of x and g (rows of C elements) ahead of their use: x was saved in
// the forward and g comes from the layer above, so both are usually out of L1 and L2, and
// the first loads of a row would otherwise wait for them.
template <class T>
static void prefetch_rows(const T* x, const T* g, int64_t r0, int64_t r1, int64_t C) {
  constexpr int64_t kLine = 64 / int64_t(sizeof(T));
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t i = 0; i < C; i += kLine) {
      __builtin_prefetch(x + r * C + i);
      if (g) __builtin_prefetch(g + r * C + i);
    }
}

// x - mean, for a mean summed in double, to T's own precision but in T's arithmetic. The
// mean is split into hi = T(mean) and lo = T(mean - hi); x - hi is exact wherever x is
// within a factor 2 of hi (Sterbenz's lemma), which is where it matters: rounding the mean
// to float32 first would shift every output by up to half an ulp of the mean times rstd
// (0.05 for x = 1e4 + N(0, 0.01²)). The same in double costs four conversions and two
// double operations per 16 floats; this, two float operations.
template <class T>
struct Centered {
  T hi, lo;
  explicit Centered(double mean) : hi(T(mean)), lo(T(mean - double(T(mean)))) {}
  T operator()(T x) const { return (x - hi) - lo; }
};

// Σx / C over one row of C elements, summed in double.
template <class T>
static double row_mean(const T* row, int64_t C) {
  double s = 0;
#pragma omp simd reduction(+ : s)
  for (int64_t i = 0; i < C; ++i) s += double(row[i]);
  return s / double(C);
}

// x, out: [N, C] contiguous; mean, rstd: [N]; w, b: [C] or absent.
//   mean = Σx / C,  var = Σ(x - mean)² / C (biased, as in Ba et al. 2016),  rstd = 1/√(var + eps)
//   out = (x - mean) · rstd · w + b
void Kernels::layer_norm(const KTensor& out, const KTensor& mean, const KTensor& rstd,
                         const KTensor& x, const KTensor& w, const KTensor& b, double eps) {
  const int64_t C = x.shape.back(), N = C ? x.numel() / C : 0;
  dispatch_floating(x.dtype, [&](auto z) {
    using T = decltype(z);
    const T* px = x.ptr<T>();
    const T* pw = w.ptr<T>();
    const T* pb = b.ptr<T>();
    T* po = out.ptr<T>();
    T* pm = mean.ptr<T>();
    T* pr = rstd.ptr<T>();
    // has_w, has_b (compile-time bools): with w's and b's loads under runtime conditions the
    // output loop would not vectorize.
    const auto rows = [&](auto has_w, auto has_b) {
      // Captured by value: see tensor/cpu/adam.cpp.
      parallel_for(0, N, 64, [=](int64_t lo, int64_t hi) {
        // Rows in groups of kGroup, each step done for the whole group before the next: a
        // row's steps wait on each other (its mean, then its variance, then the output),
        // and the rows of a group overlap in the CPU instead.
        for (int64_t n0 = lo; n0 < hi; n0 += kGroup) {
          const int64_t g = std::min(kGroup, hi - n0);
          double m[kGroup], s[kGroup];
          prefetch_rows(px, static_cast<const T*>(nullptr), n0 + kGroup,
                        std::min(n0 + 2 * kGroup, hi), C);
          for (int64_t r = 0; r < g; ++r) m[r] = row_mean(px + (n0 + r) * C, C);
          for (int64_t r = 0; r < g; ++r) {
            // Two passes (mean, then squared deviations): the one-pass Σx² - (Σx)²/C form
            // cancels catastrophically when the mean is large next to the spread.
            const T* row = px + (n0 + r) * C;
            const Centered<T> c(m[r]);
            double v = 0;
#pragma omp simd reduction(+ : v)
            for (int64_t i = 0; i < C; ++i) v += double(c(row[i])) * double(c(row[i]));
            s[r] = 1.0 / std::sqrt(v / double(C) + eps);
          }
          for (int64_t r = 0; r < g; ++r) {
            const int64_t n = n0 + r;
            const T* row = px + n * C;
            const double mr = m[r], sr = s[r];
            const Centered<T> c(mr);
            const T st = T(sr);
            T* o = po + n * C;
            for (int64_t i = 0; i < C; ++i) {
              T y = c(row[i]) * st;
              if constexpr (has_w) y *= pw[i];
              if constexpr (has_b) y += pb[i];
              o[i] = y;
            }
            pm[n] = T(mr);
            pr[n] = T(sr);
          }
        }
      });
    };
    if (pw && pb) rows(std::true_type{}, std::true_type{});
    else if (pw) rows(std::true_type{}, std::false_type{});
    else if (pb) rows(std::false_type{}, std::true_type{});
    else rows(std::false_type{}, std::false_type{});
  });
}

// dout, x, dx: [N, C] contiguous; rstd: [N]; w, dw, db: [C] or absent. With
// norm = (x - mean) · rstd and dnorm = dout · w (see LayerNormBackward in
// ops/layer_norm.cpp for the derivation):
//   db = Σ_rows dout,  dw = Σ_rows dout · norm
//   dx = rstd · (dnorm - mean(dnorm) - norm · mean(dnorm · norm))
// Each row's mean is summed again in double and x - mean formed as in the forward
// (Centered), so that norm is the forward's own. norm is formed once per row and kept in T
// for the rest: the column sums of dw (in double), the row sums (in T), and dx.
void Kernels::layer_norm_backward(const KTensor& dx, const KTensor& dw, const KTensor& db,
                                  const KTensor& dout, const KTensor& x, const KTensor& rstd,
                                  const KTensor& w) {
  const int64_t C = x.shape.back(), N = C ? x.numel() / C : 0;
  dispatch_floating(x.dtype, [&](auto z) {
    using T = decltype(z);
    const T* px = x.ptr<T>();
    const T* pg = dout.ptr<T>();
    const T* pw = w.ptr<T>();
    const T* pr = rstd.ptr<T>();
    T* pdx = dx.ptr<T>();
    T* pdw = dw.ptr<T>();
    T* pdb = db.ptr<T>();
    Scratch<T> norms(*this, C > kMaxGroupC ? size_t(N * C) : size_t(1));
    T* pn = norms.data();
    // dw and db are column sums over the rows, in double. Each block of kSumRows rows keeps
    // its own, added while its rows are still in L1; the blocks' sums are then added in
    // block order. The blocks depend on N only, so the bits do not depend on the threads.
    const bool sums = pdw || pdb;
    const int64_t blocks = (N + kSumRows - 1) / kSumRows;
    std::vector<double> block_w(sums ? size_t(blocks * C) : 0), block_b(block_w.size());
    double* pbw = block_w.data();
    double* pbb = block_b.data();
    // has_w (a compile-time bool): with the weight's load under a runtime condition, the
    // loops would not vectorize.
    const auto rows = [&](auto has_w) {
      // Captured by value: see tensor/cpu/adam.cpp.
      parallel_for(0, blocks, 1, [=](int64_t b0, int64_t b1) {
        T norm[kGroup][kMaxGroupC];  // the group's rows of norm, when C fits (else pn)
        for (int64_t blk = b0; blk < b1; ++blk) {
          const int64_t hi = std::min(N, (blk + 1) * kSumRows);
          double* sw = pbw + blk * C;
          double* sb = pbb + blk * C;
          if (sums)
            for (int64_t i = 0; i < C; ++i) sw[i] = sb[i] = 0.0;
          // Rows in groups, each step for the whole group first (see the forward).
          for (int64_t n0 = blk * kSumRows; n0 < hi; n0 += kGroup) {
            const int64_t rows_g = std::min(kGroup, hi - n0);
            double m[kGroup];
            T sum_dn[kGroup], sum_dn_norm[kGroup];
            prefetch_rows(px, pg, n0 + kGroup, std::min(n0 + 2 * kGroup, hi), C);
            for (int64_t r = 0; r < rows_g; ++r) m[r] = row_mean(px + (n0 + r) * C, C);
            T* nrow[kGroup];
            for (int64_t r = 0; r < rows_g; ++r) {
              const int64_t n = n0 + r;
              const T* row = px + n * C;
              T* nr = nrow[r] = C <= kMaxGroupC ? norm[r] : pn + n * C;
              const Centered<T> c(m[r]);
              const T rt = pr[n];
              for (int64_t i = 0; i < C; ++i) nr[i] = c(row[i]) * rt;
            }
            if (sums)
              for (int64_t r = 0; r < rows_g; ++r) {
                const T* g = pg + (n0 + r) * C;
                const T* nr = nrow[r];
                for (int64_t i = 0; i < C; ++i) {
                  sw[i] += double(g[i]) * double(nr[i]);
                  sb[i] += double(g[i]);
                }
              }
            if (!pdx) continue;
            // dnorm goes into dx's row first; the two sums and dx then read it from there.
            // (One reduction per loop: with two, and the weight, GCC kept this loop scalar.)
            for (int64_t r = 0; r < rows_g; ++r) {
              const T* g = pg + (n0 + r) * C;
              T* d = pdx + (n0 + r) * C;
              for (int64_t i = 0; i < C; ++i) d[i] = has_w ? g[i] * pw[i] : g[i];
              T sdn = 0;
#pragma omp simd reduction(+ : sdn)
              for (int64_t i = 0; i < C; ++i) sdn += d[i];
              sum_dn[r] = sdn;
            }
            for (int64_t r = 0; r < rows_g; ++r) {
              const T* d = pdx + (n0 + r) * C;
              const T* nr = nrow[r];
              T sdnn = 0;
#pragma omp simd reduction(+ : sdnn)
              for (int64_t i = 0; i < C; ++i) sdnn += d[i] * nr[i];
              sum_dn_norm[r] = sdnn;
            }
            for (int64_t r = 0; r < rows_g; ++r) {
              const int64_t n = n0 + r;
              T* d = pdx + n * C;
              const T* nr = nrow[r];
              const T a = sum_dn[r] / T(C), c = sum_dn_norm[r] / T(C), rt = pr[n];
              for (int64_t i = 0; i < C; ++i) d[i] = rt * (d[i] - a - nr[i] * c);
            }
          }
        }
      });
    };
    if (pw) rows(std::true_type{});
    else rows(std::false_type{});
    for (int64_t i = 0; sums && i < C; ++i) {
      double tw = 0, tb = 0;
      for (int64_t blk = 0; blk < blocks; ++blk) {
        tw += pbw[blk * C + i];
        tb += pbb[blk * C + i];
      }
      if (pdw) pdw[i] = T(tw);
      if (pdb) pdb[i] = T(tb);
    }
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
