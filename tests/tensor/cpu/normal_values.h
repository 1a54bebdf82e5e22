// Random inputs for the kernel tests of this folder, which call kernels on raw buffers.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace attic::testing {

// n values mean + std · N(0, 1) in T, drawn from rng.
template <class T>
std::vector<T> normal_values(int64_t n, double mean, double std, std::mt19937& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  std::vector<T> v(static_cast<size_t>(n));
  for (T& x : v) x = T(mean + std * g(rng));
  return v;
}

}  // namespace attic::testing
