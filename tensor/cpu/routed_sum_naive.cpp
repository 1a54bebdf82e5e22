#include "tensor/cpu/routed_sum.h"

namespace attic::cpu {

// src_l, out [B, NH, T, hs], w [L·NH]: out = Σ_l w[l·NH + h] · src_l, element by element
template <class T>
void routed_sum_naive(int64_t B, int64_t NH, int64_t Tn, int64_t hs, const T* w,
                      const std::vector<const T*>& src, T* out) {
  const auto L = int64_t(src.size());
  for (int64_t b = 0; b < B; ++b)
    for (int64_t h = 0; h < NH; ++h)
      for (int64_t e = 0; e < Tn * hs; ++e) {
        const int64_t at = (b * NH + h) * Tn * hs + e;
        double acc = 0;
        for (int64_t l = 0; l < L; ++l) acc += double(w[l * NH + h]) * double(src[size_t(l)][at]);
        out[at] = T(acc);
      }
}

// g, dsrc_l [B, NH, T, hs], dw [L·NH]: dsrc_l = w[l·NH + h] g, dw[l·NH + h] = Σ g · src_l
template <class T>
void routed_sum_backward_naive(int64_t B, int64_t NH, int64_t Tn, int64_t hs, const T* g,
                               const T* w, const std::vector<const T*>& src,
                               const std::vector<T*>& dsrc, T* dw) {
  const auto L = int64_t(src.size());
  for (int64_t l = 0; l < L; ++l)
    for (int64_t h = 0; h < NH; ++h) {
      double acc = 0;
      for (int64_t b = 0; b < B; ++b)
        for (int64_t e = 0; e < Tn * hs; ++e) {
          const int64_t at = (b * NH + h) * Tn * hs + e;
          dsrc[size_t(l)][at] = w[l * NH + h] * g[at];
          acc += double(g[at]) * double(src[size_t(l)][at]);
        }
      dw[l * NH + h] = T(acc);
    }
}

template void routed_sum_naive<float>(int64_t, int64_t, int64_t, int64_t, const float*,
                                      const std::vector<const float*>&, float*);
template void routed_sum_naive<double>(int64_t, int64_t, int64_t, int64_t, const double*,
                                       const std::vector<const double*>&, double*);
template void routed_sum_backward_naive<float>(int64_t, int64_t, int64_t, int64_t, const float*,
                                               const float*, const std::vector<const float*>&,
                                               const std::vector<float*>&, float*);
template void routed_sum_backward_naive<double>(int64_t, int64_t, int64_t, int64_t,
                                                const double*, const double*,
                                                const std::vector<const double*>&,
                                                const std::vector<double*>&, double*);

}  // namespace attic::cpu
