// LayerNorm's plain reference: the definition (Ba, Kiros & Hinton 2016), one row after
// another, everything in double. Slow and obviously right; the fused kernels of
// tensor/cpu/layer_norm.cpp are tested against it (tests/tensor/cpu/test_layer_norm.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace attic::cpu {

// One row of C values: mean = Σx / C,  var = Σ(x - mean)² / C,  rstd = 1/√(var + eps).
struct RowStats {
  double mean, rstd;
};
template <class T>
RowStats row_stats(const T* row, int64_t C, double eps) {
  double m = 0, v = 0;
  for (int64_t i = 0; i < C; ++i) m += double(row[i]);
  m /= double(C);
  for (int64_t i = 0; i < C; ++i) v += (double(row[i]) - m) * (double(row[i]) - m);
  return {m, 1.0 / std::sqrt(v / double(C) + eps)};
}

// x, out: [N, C] row-major; w, b: [C] or null; mean, rstd: [N] (row_stats of each row).
//   out = (x - mean) · rstd · w + b
template <class T>
void layer_norm_naive(int64_t N, int64_t C, const T* x, const T* w, const T* b, double eps,
                      T* out, T* mean, T* rstd) {
  for (int64_t n = 0; n < N; ++n) {
    const T* row = x + n * C;
    const auto [m, r] = row_stats(row, C, eps);
    for (int64_t i = 0; i < C; ++i) {
      const double norm = (double(row[i]) - m) * r;
      out[n * C + i] = T(norm * (w ? double(w[i]) : 1.0) + (b ? double(b[i]) : 0.0));
    }
    mean[n] = T(m);
    rstd[n] = T(r);
  }
}

// dout, x, dx: [N, C] row-major; w, dw, db: [C] or null (dx, dw, db null: not wanted).
// mean and rstd are recomputed from x. With norm = (x - mean) · rstd and dnorm = dout · w
// (derived beside LayerNormBackward in ops/layer_norm.cpp):
//   db = Σ_rows dout,  dw = Σ_rows dout · norm
//   dx = rstd · (dnorm - mean(dnorm) - norm · mean(dnorm · norm))
template <class T>
void layer_norm_backward_naive(int64_t N, int64_t C, const T* dout, const T* x, const T* w,
                               double eps, T* dx, T* dw, T* db) {
  const size_t n_c = static_cast<size_t>(C);
  std::vector<double> sw(n_c, 0.0), sb(n_c, 0.0), norm(n_c), dnorm(n_c);
  for (int64_t n = 0; n < N; ++n) {
    const T* row = x + n * C;
    const T* g = dout + n * C;
    const auto [m, r] = row_stats(row, C, eps);
    double mean_dn = 0, mean_dn_norm = 0;
    for (int64_t i = 0; i < C; ++i) {
      norm[i] = (double(row[i]) - m) * r;
      dnorm[i] = double(g[i]) * (w ? double(w[i]) : 1.0);
      mean_dn += dnorm[i] / double(C);
      mean_dn_norm += dnorm[i] * norm[i] / double(C);
      sw[i] += double(g[i]) * norm[i];
      sb[i] += double(g[i]);
    }
    if (dx)
      for (int64_t i = 0; i < C; ++i)
        dx[n * C + i] = T(r * (dnorm[i] - mean_dn - norm[i] * mean_dn_norm));
  }
  for (int64_t i = 0; i < C; ++i) {
    if (dw) dw[i] = T(sw[size_t(i)]);
    if (db) db[i] = T(sb[size_t(i)]);
  }
}

}  // namespace attic::cpu
