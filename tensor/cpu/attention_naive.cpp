#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tensor/cpu/attention.h"

namespace attic::cpu {

// q [Tq, hs], k [Tk, hs], v [Tk, hv] -> out [Tq, hv], att [Tq, Tk]; one row of S at a time.
template <class T>
void attention_naive(int64_t Tq, int64_t Tk, int64_t hs, int64_t hv, const T* q, const T* k,
                     const T* v, T scale, bool causal, T* out, T* att) {
  for (int64_t i = 0; i < Tq; ++i) {
    T* p = att + i * Tk;
    // S[i][j] = q_i · k_j · scale, -inf where dropped
    T m = -std::numeric_limits<T>::infinity();
    for (int64_t j = 0; j < Tk; ++j) {
      T s = 0;
      for (int64_t c = 0; c < hs; ++c) s += q[i * hs + c] * k[j * hs + c];
      p[j] = causal && j > i ? -std::numeric_limits<T>::infinity() : s * scale;
      m = std::max(m, p[j]);
    }
    // softmax, the row's max subtracted so that no exp overflows
    T sum = 0;
    for (int64_t j = 0; j < Tk; ++j) sum += (p[j] = std::exp(p[j] - m));
    for (int64_t j = 0; j < Tk; ++j) p[j] /= sum;
    // out_i = Σ_j P[i][j] v_j
    for (int64_t c = 0; c < hv; ++c) {
      T o = 0;
      for (int64_t j = 0; j < Tk; ++j) o += p[j] * v[j * hv + c];
      out[i * hv + c] = o;
    }
  }
}

// dq [Tq, hs], dk [Tk, hs], dv [Tk, hv] from P = att [Tq, Tk] and dout [Tq, hv]
template <class T>
void attention_backward_naive(int64_t Tq, int64_t Tk, int64_t hs, int64_t hv, const T* q,
                              const T* k, const T* v, const T* att, const T* dout, T scale,
                              T* dq, T* dk, T* dv) {
  // dv = Pᵀ dout: dv[j][c] = Σ_i P[i][j] dout[i][c]
  for (int64_t j = 0; j < Tk; ++j)
    for (int64_t c = 0; c < hv; ++c) {
      T acc = 0;
      for (int64_t i = 0; i < Tq; ++i) acc += att[i * Tk + j] * dout[i * hv + c];
      dv[j * hv + c] = acc;
    }
  // dS[i][j] = P[i][j] (dP[i][j] − Σ_l dP[i][l] P[i][l]), dP[i][j] = dout_i · v_j
  std::vector<T> dS(size_t(Tq * Tk));
  for (int64_t i = 0; i < Tq; ++i) {
    T dot = 0;
    for (int64_t j = 0; j < Tk; ++j) {
      T dp = 0;
      for (int64_t c = 0; c < hv; ++c) dp += dout[i * hv + c] * v[j * hv + c];
      dS[size_t(i * Tk + j)] = dp;
      dot += dp * att[i * Tk + j];
    }
    for (int64_t j = 0; j < Tk; ++j)
      dS[size_t(i * Tk + j)] = att[i * Tk + j] * (dS[size_t(i * Tk + j)] - dot);
  }
  // dq = scale · dS k,  dk = scale · dSᵀ q
  for (int64_t i = 0; i < Tq; ++i)
    for (int64_t c = 0; c < hs; ++c) {
      T acc = 0;
      for (int64_t j = 0; j < Tk; ++j) acc += dS[size_t(i * Tk + j)] * k[j * hs + c];
      dq[i * hs + c] = acc * scale;
    }
  for (int64_t j = 0; j < Tk; ++j)
    for (int64_t c = 0; c < hs; ++c) {
      T acc = 0;
      for (int64_t i = 0; i < Tq; ++i) acc += dS[size_t(i * Tk + j)] * q[i * hs + c];
      dk[j * hs + c] = acc * scale;
    }
}

template void attention_naive<float>(int64_t, int64_t, int64_t, int64_t, const float*,
                                     const float*, const float*, float, bool, float*, float*);
template void attention_naive<double>(int64_t, int64_t, int64_t, int64_t, const double*,
                                      const double*, const double*, double, bool, double*,
                                      double*);
template void attention_backward_naive<float>(int64_t, int64_t, int64_t, int64_t, const float*,
                                              const float*, const float*, const float*,
                                              const float*, float, float*, float*, float*);
template void attention_backward_naive<double>(int64_t, int64_t, int64_t, int64_t,
                                               const double*, const double*, const double*,
                                               const double*, const double*, double, double*,
                                               double*, double*);

}  // namespace attic::cpu
