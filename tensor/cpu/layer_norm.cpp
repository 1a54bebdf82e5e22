// LayerNorm on the CPU, forward and backward, one row of C features at a time
// (llm.c's layernorm_forward / layernorm_backward, generalized to optional w and b).
#include <cmath>
#include <vector>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu {

// Σx / C over one row of C elements, summed in double.
template <class T>
static double row_mean(const T* row, int64_t C) {
  double m = 0;
  for (int64_t i = 0; i < C; ++i) m += row[i];
  return m / double(C);
}

// x, out: [N, C] contiguous; mean, rstd: [N]; w, b: [C] or absent.
//   mean = Σx / C,  var = Σ(x - mean)² / C (biased, as in the paper),  rstd = 1/√(var + eps)
//   out = (x - mean) · rstd · w + b
void CpuBackend::layer_norm(const KTensor& out, const KTensor& mean, const KTensor& rstd,
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
    parallel_for(0, N, 64, [&](int64_t lo, int64_t hi) {
      for (int64_t n = lo; n < hi; ++n) {
        const T* row = px + n * C;
        // Two passes (mean, then squared deviations): the one-pass Σx² - (Σx)²/C form
        // cancels catastrophically when the mean is large next to the spread.
        const double m = row_mean(row, C);
        double v = 0;
        for (int64_t i = 0; i < C; ++i) v += (row[i] - m) * (row[i] - m);
        v /= double(C);
        const double s = 1.0 / std::sqrt(v + eps);
        // x - mean in double: rounding the mean to float32 first would shift every output
        // by up to half an ulp of the mean times rstd (0.05 for x = 1e4 + N(0, 0.01²)).
        T* o = po + n * C;
        for (int64_t i = 0; i < C; ++i) {
          const T norm = T((row[i] - m) * s);
          o[i] = norm * (pw ? pw[i] : T(1)) + (pb ? pb[i] : T(0));
        }
        pm[n] = T(m);
        pr[n] = T(s);
      }
    });
  });
}

// With norm = (x - mean) · rstd and dnorm = dout · w, per row:
//   db = Σ_rows dout,  dw = Σ_rows dout · norm
//   dx = rstd · (dnorm - mean(dnorm) - norm · mean(dnorm · norm))
// (the last two terms are the gradient flowing through mean and through rstd).
// The saved mean is rounded to T; each row's mean is summed again in double so that norm is
// the forward's own (see there).
void CpuBackend::layer_norm_backward(const KTensor& dx, const KTensor& dw, const KTensor& db,
                                     const KTensor& dout, const KTensor& x,
                                     const KTensor& /*mean*/, const KTensor& rstd,
                                     const KTensor& w) {
  const int64_t C = x.shape.back(), N = C ? x.numel() / C : 0;
  dispatch_floating(x.dtype, [&](auto z) {
    using T = decltype(z);
    const T* px = x.ptr<T>();
    const T* pg = dout.ptr<T>();
    const T* pw = w.ptr<T>();
    const T* pr = rstd.ptr<T>();
    T* pdx = dx.ptr<T>();
    if (pdx) {
      parallel_for(0, N, 64, [&](int64_t lo, int64_t hi) {
        for (int64_t n = lo; n < hi; ++n) {
          const T* row = px + n * C;
          const T* g = pg + n * C;
          const double m = row_mean(row, C);
          double mean_dn = 0, mean_dn_norm = 0;
          for (int64_t i = 0; i < C; ++i) {
            const T norm = T((row[i] - m) * pr[n]);
            const T dn = g[i] * (pw ? pw[i] : T(1));
            mean_dn += dn;
            mean_dn_norm += dn * norm;
          }
          mean_dn /= double(C);
          mean_dn_norm /= double(C);
          T* d = pdx + n * C;
          for (int64_t i = 0; i < C; ++i) {
            const T norm = T((row[i] - m) * pr[n]);
            const T dn = g[i] * (pw ? pw[i] : T(1));
            d[i] = pr[n] * (dn - T(mean_dn) - norm * T(mean_dn_norm));
          }
        }
      });
    }
    // dw and db sum over rows; accumulated in double, one column range per thread.
    T* pdw = dw.ptr<T>();
    T* pdb = db.ptr<T>();
    if (pdw || pdb) {
      std::vector<double> sw(size_t(C), 0.0), sb(size_t(C), 0.0);
      for (int64_t n = 0; n < N; ++n) {
        const T* row = px + n * C;
        const T* g = pg + n * C;
        const double m = row_mean(row, C);
        for (int64_t i = 0; i < C; ++i) {
          sw[size_t(i)] += double(g[i]) * ((row[i] - m) * double(pr[n]));
          sb[size_t(i)] += double(g[i]);
        }
      }
      for (int64_t i = 0; i < C; ++i) {
        if (pdw) pdw[i] = T(sw[size_t(i)]);
        if (pdb) pdb[i] = T(sb[size_t(i)]);
      }
    }
  });
}

}  // namespace attic::cpu
