#include "tensor/cpu/scan.h"

#include <algorithm>
#include <cmath>

namespace attic::cpu {

// y [outer, n, inner] from x [outer, n, inner] and r [outer, n], one line at a time
template <class T>
void decayed_cumsum_naive(int64_t outer, int64_t n, int64_t inner, const T* x, const T* r, T* y,
                          bool reverse) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      T acc = 0;
      for (int64_t k = 0; k < n; ++k) {
        const int64_t t = reverse ? n - 1 - k : k;
        const int64_t from = reverse ? t + 1 : t;  // the r that carries acc into t
        const T decay = k == 0 ? T(0) : r[o * n + from];
        acc = x[(o * n + t) * inner + i] + decay * acc;
        y[(o * n + t) * inner + i] = acc;
      }
    }
}

// y [outer, n, inner] from x [outer, n, inner], one line at a time
template <class T>
void running_max_naive(int64_t outer, int64_t n, int64_t inner, const T* x, T* y) {
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i)
      for (int64_t t = 0; t < n; ++t) {
        const T v = x[(o * n + t) * inner + i];
        const T before = t == 0 ? v : y[(o * n + t - 1) * inner + i];
        y[(o * n + t) * inner + i] = std::isnan(before) || std::isnan(v) ? NAN : std::max(before, v);
      }
}

template void running_max_naive<float>(int64_t, int64_t, int64_t, const float*, float*);
template void running_max_naive<double>(int64_t, int64_t, int64_t, const double*, double*);

template void decayed_cumsum_naive<float>(int64_t, int64_t, int64_t, const float*, const float*,
                                          float*, bool);
template void decayed_cumsum_naive<double>(int64_t, int64_t, int64_t, const double*,
                                           const double*, double*, bool);

}  // namespace attic::cpu
