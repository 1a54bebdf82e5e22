#include <algorithm>
#include <cmath>
#include <vector>

#include "tensor/cpu/prefix_softmax.h"

namespace attic::cpu {

namespace {

// Row i of line l: its probabilities p_j (j ≤ i) of logits r_i + s_j and q of d_i,
// shifted by the row's maximum, and the row's output y_i [A], all in double.
struct Row {
  std::vector<double> p, y;
  double q = 0;
};

// s, d, r [L, N], v [L, N, A], line l, row i -> that row: p_j = e^{r_i + s_j − mx} / den,
// q = e^{d_i − mx} / den, mx the largest of the i + 2 logits
template <class T>
Row row_of(int64_t N, int64_t A, const T* s, const T* d, const T* r, const T* v, int64_t l,
           int64_t i) {
  const int64_t at = l * N + i;
  double mx = double(d[at]);
  for (int64_t j = 0; j <= i; ++j) mx = std::max(mx, double(r[at]) + double(s[l * N + j]));
  Row row;
  row.p.resize(size_t(i + 1));
  double den = row.q = std::exp(double(d[at]) - mx);
  for (int64_t j = 0; j <= i; ++j) {
    row.p[size_t(j)] = std::exp(double(r[at]) + double(s[l * N + j]) - mx);
    den += row.p[size_t(j)];
  }
  row.q /= den;
  for (double& p : row.p) p /= den;
  row.y.assign(size_t(A), 0.0);
  for (int64_t k = 0; k < A; ++k) {
    double acc = row.q * double(v[at * A + k]);
    for (int64_t j = 0; j <= i; ++j) acc += row.p[size_t(j)] * double(v[(l * N + j) * A + k]);
    row.y[size_t(k)] = acc;
  }
  return row;
}

}  // namespace

// s, d, r [L, N], v [L, N, A] -> y [L, N, A], one row's softmax at a time
template <class T>
void prefix_softmax_naive(int64_t L, int64_t N, int64_t A, const T* s, const T* d, const T* r,
                          const T* v, T* y) {
  for (int64_t l = 0; l < L; ++l)
    for (int64_t i = 0; i < N; ++i) {
      const Row row = row_of(N, A, s, d, r, v, l, i);
      for (int64_t k = 0; k < A; ++k) y[(l * N + i) * A + k] = T(row.y[size_t(k)]);
    }
}

// g [L, N, A] -> ds, dd, dr [L, N], dv [L, N, A]: for row i, with gy = g_i·y_i,
//   key j ≤ i:  c = p_j (g_i·v_j − gy),  ds_j += c,  dr_i += c,  dv_j += p_j g_i
//   diagonal:   dd_i = q (g_i·v_i − gy),  dv_i += q g_i
template <class T>
void prefix_softmax_backward_naive(int64_t L, int64_t N, int64_t A, const T* g, const T* s,
                                   const T* d, const T* r, const T* v, T* ds, T* dd, T* dr,
                                   T* dv) {
  std::vector<double> gs(size_t(L * N), 0.0), gd(size_t(L * N), 0.0), gr(size_t(L * N), 0.0),
      gv(size_t(L * N * A), 0.0);
  auto dot = [&](int64_t gi, int64_t vj) {  // g_gi · v_vj
    double acc = 0;
    for (int64_t k = 0; k < A; ++k) acc += double(g[gi * A + k]) * double(v[vj * A + k]);
    return acc;
  };
  for (int64_t l = 0; l < L; ++l)
    for (int64_t i = 0; i < N; ++i) {
      const int64_t at = l * N + i;
      const Row row = row_of(N, A, s, d, r, v, l, i);
      double gy = 0;
      for (int64_t k = 0; k < A; ++k) gy += double(g[at * A + k]) * row.y[size_t(k)];
      for (int64_t j = 0; j <= i; ++j) {
        const double p = row.p[size_t(j)];
        const double c = p * (dot(at, l * N + j) - gy);
        gs[size_t(l * N + j)] += c;
        gr[size_t(at)] += c;
        for (int64_t k = 0; k < A; ++k) gv[size_t((l * N + j) * A + k)] += p * double(g[at * A + k]);
      }
      gd[size_t(at)] = row.q * (dot(at, at) - gy);
      for (int64_t k = 0; k < A; ++k) gv[size_t(at * A + k)] += row.q * double(g[at * A + k]);
    }
  for (int64_t e = 0; e < L * N; ++e) {
    ds[e] = T(gs[size_t(e)]);
    dd[e] = T(gd[size_t(e)]);
    dr[e] = T(gr[size_t(e)]);
  }
  for (int64_t e = 0; e < L * N * A; ++e) dv[e] = T(gv[size_t(e)]);
}

template void prefix_softmax_naive<float>(int64_t, int64_t, int64_t, const float*, const float*,
                                          const float*, const float*, float*);
template void prefix_softmax_naive<double>(int64_t, int64_t, int64_t, const double*,
                                           const double*, const double*, const double*, double*);
template void prefix_softmax_backward_naive<float>(int64_t, int64_t, int64_t, const float*,
                                                   const float*, const float*, const float*,
                                                   const float*, float*, float*, float*, float*);
template void prefix_softmax_backward_naive<double>(int64_t, int64_t, int64_t, const double*,
                                                    const double*, const double*, const double*,
                                                    const double*, double*, double*, double*,
                                                    double*);

}  // namespace attic::cpu
