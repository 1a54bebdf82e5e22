// The references of the CPU scans (tensor/cpu/scan.cpp), the decayed prefix sum and the
// running maximum: one plain loop per line. tests/tensor/cpu/test_scan.cpp checks the
// kernels against them.
#pragma once

#include <cstdint>

namespace attic::cpu {

// x, y [outer, n, inner] and r [outer, n], contiguous. Along n, for every inner element:
//   y_t = x_t + r_t y_{t−1}, y_0 = x_0;  reverse: y_t = x_t + r_{t+1} y_{t+1}, y_{n−1} = x_{n−1}.
template <class T>
void decayed_cumsum_naive(int64_t outer, int64_t n, int64_t inner, const T* x, const T* r, T* y,
                          bool reverse);

// x, y [outer, n, inner], contiguous. Along n, for every inner element:
//   y_0 = x_0, y_t = max(y_{t−1}, x_t), and y_t = NaN from the first NaN x_t on.
template <class T>
void running_max_naive(int64_t outer, int64_t n, int64_t inner, const T* x, T* y);

}  // namespace attic::cpu
