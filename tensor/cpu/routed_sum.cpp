// Route attention's sum over sources on the CPU (see tensor/backend.h):
//   out[b, h] = Σ_l w[l·NH + h] · src_l[b, h]        src_l, out [B, NH, T, hs]
// Written as multiplies and adds, it is 2L − 1 passes over [B, NH, T, hs] forward, and in
// backward a multiply, a multiply and a reduction for each source (routed_sum.h holds the
// plain loops). Here one pass reads every source once: forward, each row of hs is summed over
// the sources in registers; backward, each row of g is read once for all L products w · g and
// all L dot products g · src_l. The work is split by (b, h) pairs. dw's sums are kept per
// pair in double and added over b in order afterwards, so they do not depend on the
// thread count.
#include <algorithm>
#include <vector>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/thread_pool.h"
#include "tensor/error.h"

namespace attic::cpu {

namespace {

// The pairs (b, h) of [B, NH, T, hs] a thread takes at once: about 16K elements of each
// operand, or waking a thread costs more than the work.
int64_t pair_grain(int64_t Tn, int64_t hs) {
  return std::max<int64_t>(1, 16384 / std::max<int64_t>(1, Tn * hs));
}

// Element (b, h, t, 0) of a [B, NH, T, hs] operand with strides s.
inline int64_t row_offset(const std::vector<int64_t>& s, int64_t b, int64_t h, int64_t t) {
  return b * s[0] + h * s[1] + t * s[2];
}

// Calls row(p, b, h, t) for every row (b, h, t) of [B, NH, T, hs], p = b·NH + h, the pairs
// (b, h) split between threads.
template <class Row>
void for_each_row(int64_t B, int64_t NH, int64_t Tn, int64_t hs, const Row& row) {
  parallel_for(0, B * NH, pair_grain(Tn, hs), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p)
      for (int64_t t = 0; t < Tn; ++t) row(p, p / NH, p % NH, t);
  });
}

}  // namespace

// out [B, NH, T, hs] with unit stride in hs (route's packed form writes head views of
// [B, T, 3C]), w [L·NH] contiguous, src_l [B, NH, T, hs] any strides
void CpuBackend::routed_sum(const KTensor& out, const KTensor& w, const std::vector<KTensor>& src) {
  const int64_t B = out.shape[0], NH = out.shape[1], Tn = out.shape[2], hs = out.shape[3];
  const auto L = int64_t(src.size());
  ATTIC_CHECK(out.strides[3] == 1, "routed_sum: out needs unit stride in hs, got strides ",
              str(out.strides));
  dispatch_floating(out.dtype, [&](auto z) {
    using T = decltype(z);
    for_each_row(B, NH, Tn, hs, [&](int64_t, int64_t b, int64_t h, int64_t t) {
      T* o = out.ptr<T>() + row_offset(out.strides, b, h, t);
      for (int64_t l = 0; l < L; ++l) {
        const KTensor& s = src[size_t(l)];
        const T* x = s.ptr<T>() + row_offset(s.strides, b, h, t);
        const T wl = w.ptr<T>()[l * NH + h];
        const int64_t si = s.strides[3];
        if (l == 0 && si == 1) {
#pragma omp simd
          for (int64_t i = 0; i < hs; ++i) o[i] = wl * x[i];
        } else if (si == 1) {
#pragma omp simd
          for (int64_t i = 0; i < hs; ++i) o[i] += wl * x[i];
        } else {
          for (int64_t i = 0; i < hs; ++i) o[i] = (l == 0 ? T(0) : o[i]) + wl * x[i * si];
        }
      }
    });
  });
}

// dsrc_l [B, NH, T, hs] with unit stride in hs, dw [L·NH] contiguous; g, src_l any strides
void CpuBackend::routed_sum_backward(const std::vector<KTensor>& dsrc, const KTensor& dw,
                                     const KTensor& g, const KTensor& w,
                                     const std::vector<KTensor>& src) {
  const int64_t B = g.shape[0], NH = g.shape[1], Tn = g.shape[2], hs = g.shape[3];
  const auto L = int64_t(src.size());
  for (const KTensor& d : dsrc)
    ATTIC_CHECK(d.strides[3] == 1, "routed_sum_backward: dsrc needs unit stride in hs, got "
                "strides ", str(d.strides));
  std::vector<double> partial(size_t(B * NH * L), 0.0);  // Σ_{t,i} g · src_l for pair (b, h)
  dispatch_floating(g.dtype, [&](auto z) {
    using T = decltype(z);
    for_each_row(B, NH, Tn, hs, [&](int64_t p, int64_t b, int64_t h, int64_t t) {
      const T* gr = g.ptr<T>() + row_offset(g.strides, b, h, t);
      const int64_t sg = g.strides[3];
      for (int64_t l = 0; l < L; ++l) {
        const KTensor& s = src[size_t(l)];
        const T* x = s.ptr<T>() + row_offset(s.strides, b, h, t);
        T* d = dsrc[size_t(l)].ptr<T>() + row_offset(dsrc[size_t(l)].strides, b, h, t);
        const T wl = w.ptr<T>()[l * NH + h];
        const int64_t si = s.strides[3];
        T dot = 0;  // one row's dot product in T, vectorized; the rows add up in double
        if (sg == 1 && si == 1) {
#pragma omp simd reduction(+ : dot)
          for (int64_t i = 0; i < hs; ++i) {
            d[i] = wl * gr[i];
            dot += gr[i] * x[i];
          }
        } else {
          for (int64_t i = 0; i < hs; ++i) {
            d[i] = wl * gr[i * sg];
            dot += gr[i * sg] * x[i * si];
          }
        }
        partial[size_t(p * L + l)] += double(dot);
      }
    });
    for (int64_t l = 0; l < L; ++l)
      for (int64_t h = 0; h < NH; ++h) {
        double acc = 0;
        for (int64_t b = 0; b < B; ++b) acc += partial[size_t((b * NH + h) * L + l)];
        dw.ptr<T>()[l * NH + h] = T(acc);
      }
  });
}

}  // namespace attic::cpu
