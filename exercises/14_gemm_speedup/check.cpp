// The check of chapter 14's exercise: my_gemm against the naive loop, for correctness on
// ragged sizes, and for speed at 512 x 512 x 512 when the build is optimized.
#include "tests/catch.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <tuple>
#include <vector>

#include "my_gemm.h"
#include "tensor/asan.h"

namespace {

// The reference: C(i, j) = Σ_k A(i, k) B(k, j), in the (i, j, k) order. noinline, so that
// the compiler cannot specialize it for the sizes of the test.
[[gnu::noinline]] void naive_gemm(int M, int N, int K, const float* A, const float* B,
                                  float* C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}

// A[rows, cols] of values in [-1, 1), from a fixed linear congruential sequence.
std::vector<float> matrix(int rows, int cols, unsigned seed) {
  std::vector<float> m(size_t(rows) * size_t(cols));
  for (float& x : m) {
    seed = seed * 1664525u + 1013904223u;
    x = float(seed >> 8) / float(1u << 23) - 1.0f;
  }
  return m;
}

// max |C_mine - C_naive| over all entries, after filling C_mine with garbage first (my_gemm
// must overwrite C, not add to it).
float max_error(int M, int N, int K) {
  const std::vector<float> A = matrix(M, K, 1), B = matrix(K, N, 2);
  std::vector<float> want(size_t(M) * size_t(N)), got(want.size(), 123.0f);
  naive_gemm(M, N, K, A.data(), B.data(), want.data());
  my_gemm(M, N, K, A.data(), B.data(), got.data());
  float err = 0;
  for (size_t i = 0; i < want.size(); ++i) err = std::max(err, std::fabs(got[i] - want[i]));
  return err;
}

// Seconds for one call of f: the fastest of n calls.
template <class F>
double seconds(F f, int n) {
  double best = 1e30;
  for (int r = 0; r < n; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t = std::chrono::steady_clock::now() - t0;
    best = std::min(best, std::chrono::duration<double>(t).count());
  }
  return best;
}

}  // namespace

// |C| is up to about √K / 3 here; summing the same K products in another order moves the
// result by a few float roundings of that size, far below 1e-3.
TEST_CASE("my_gemm computes A B, on square and ragged sizes") {
  for (const auto& [M, N, K] : {std::tuple{64, 64, 64}, std::tuple{1, 1, 1},
                                std::tuple{37, 53, 29}, std::tuple{130, 70, 300},
                                std::tuple{300, 257, 129}}) {
    INFO("M = " << M << ", N = " << N << ", K = " << K);
    CHECK(max_error(M, N, K) < 1e-3f);
  }
}

TEST_CASE("my_gemm is at least 2x as fast as the naive loop at 512 x 512 x 512") {
  const int n = 512;
  const std::vector<float> A = matrix(n, n, 3), B = matrix(n, n, 4);
  std::vector<float> C(size_t(n) * n);
  const double t_naive = seconds([&] { naive_gemm(n, n, n, A.data(), B.data(), C.data()); }, 2);
  const double t_mine = seconds([&] { my_gemm(n, n, n, A.data(), B.data(), C.data()); }, 3);
  const double gflop = 2.0 * n * n * n / 1e9;
  std::cout << "naive: " << gflop / t_naive << " GFLOP/s, my_gemm: " << gflop / t_mine
            << " GFLOP/s, speed-up " << t_naive / t_mine << "x\n";
  // Timings mean something only in an optimized build without sanitizers: at -O0 every
  // variable lives in memory, and AddressSanitizer checks every load and store, so both loops
  // are slowed by the instrumentation rather than by their memory access pattern.
#if !defined(__OPTIMIZE__)
  WARN("not an optimized build (-O0): the 2x timing requirement is skipped");
#elif defined(ATTIC_ASAN)
  WARN("built with AddressSanitizer: the 2x timing requirement is skipped");
#elif defined(ATTIC_EMULATED)
  // (a cross build run by qemu, which translates every instruction: set by CMake)
  WARN("run under an emulator (qemu): the 2x timing requirement is skipped");
#else
  CHECK(t_naive / t_mine >= 2.0);
#endif
}
