// Row kernels on the CPU: softmax / log_softmax along the last dim (its plain reference is
// softmax_naive.h), and tril / triu.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/fast_math.h"
#include "tensor/cpu/strided.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

// softmax(x)_i = e^(x_i - m) / Σ_j e^(x_j - m), m = max_j x_j.
// Subtracting the row max changes nothing mathematically (it cancels) but keeps every
// exponent ≤ 0, so e^x cannot overflow. log_softmax = x_i - m - log Σ_j e^(x_j - m).
void Kernels::softmax(const KTensor& out, const KTensor& in, bool log) {
  const size_t last = in.shape.size() - 1;
  const int64_t n = in.shape[last];
  std::vector<int64_t> rows = in.shape, is = in.strides, os = out.strides;
  rows[last] = 1;
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = in.ptr<T>();
    T* o = out.ptr<T>();
    // si, so: the row's strides; the contiguous path passes them as compile-time 1s so that
    // the loops compile to plain vector loads and stores.
    auto row = [&](const T* xr, T* orow, auto si, auto so) {
      T m = -INFINITY;
      // The ternary, not std::max: GCC 12 keeps a std::max reduction scalar (vmaxss), the
      // ternary becomes vmaxps. Clang (14-16) vectorizes a float max reduction only under
      // -ffinite-math-only, and a pragma asking for it would fail its -Wpass-failed check,
      // so only GCC is asked; with clang this loop stays scalar (the exps below dominate).
#if !defined(__clang__)
#pragma omp simd reduction(max : m)
#endif
      for (int64_t i = 0; i < n; ++i) m = m > xr[i * si] ? m : xr[i * si];
      if (m == -INFINITY) m = 0;  // a row of -inf (fully masked): avoid inf - inf
      // x - m <= 0 from here on (m is the row's max), so the cheaper exp of x <= 0 applies.
      T sum = 0;
      if (log) {
#pragma omp simd reduction(+ : sum)
        for (int64_t i = 0; i < n; ++i) sum += vexp_nonpos(xr[i * si] - m);
      } else {
#pragma omp simd reduction(+ : sum)
        for (int64_t i = 0; i < n; ++i) {
          const T e = vexp_nonpos(xr[i * si] - m);
          orow[i * so] = e;
          sum += e;
        }
      }
      if (log) {
        const T lse = std::log(sum);
        for (int64_t i = 0; i < n; ++i) orow[i * so] = xr[i * si] - m - lse;
      } else {
        const T inv = T(1) / sum;
        for (int64_t i = 0; i < n; ++i) orow[i * so] *= inv;
      }
    };
    const std::integral_constant<int64_t, 1> one;
    if (all_contiguous({&out, &in}) && n > 0) {
      // Rows are independent: split them over the pool, about 32K elements per chunk.
      const int64_t nrows = in.numel() / n;
      parallel_for(0, nrows, std::max<int64_t>(1, 32768 / n), [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) row(x + r * n, o + r * n, one, one);
      });
      return;
    }
    strided_rows<2>(rows, {&os, &is},
                    [&](auto off, int64_t, auto) {
                      row(x + off[1], o + off[0], in.strides[last], out.strides[last]);
                    });
  });
}

// Keeps element (i, j) of the last two dims when j - i <= k (lower) or j - i >= k (upper).
void Kernels::tril(const KTensor& out, const KTensor& in, int64_t k, bool upper) {
  const size_t nd = in.shape.size();
  std::vector<int64_t> mats(in.shape.begin(), in.shape.end() - 2);
  std::vector<int64_t> is(in.strides.begin(), in.strides.end() - 2);
  std::vector<int64_t> os(out.strides.begin(), out.strides.end() - 2);
  const int64_t R = in.shape[nd - 2], C = in.shape[nd - 1];
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = in.ptr<T>();
    T* o = out.ptr<T>();
    strided_rows<2>(mats, {&os, &is}, [&](auto off, int64_t n, auto st) {
      for (int64_t b = 0; b < n; ++b)
        for (int64_t i = 0; i < R; ++i)
          for (int64_t j = 0; j < C; ++j) {
            const bool keep = upper ? j - i >= k : j - i <= k;
            o[off[0] + b * st[0] + i * out.strides[nd - 2] + j * out.strides[nd - 1]] =
                keep ? x[off[1] + b * st[1] + i * in.strides[nd - 2] + j * in.strides[nd - 1]]
                     : T(0);
          }
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
