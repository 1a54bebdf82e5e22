// The check of chapter 18's exercise: the tiled C = A Bᵀ against three loops on the CPU, on
// sizes that are and are not multiples of the tile. Without a GPU it says so and passes;
// ctest counts that output as skipped.
#include "tests/catch.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "tiled_matmul.h"

namespace {

// n floats in [-1, 1) from a fixed linear congruential sequence (the same on every machine).
std::vector<float> values(size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = float(seed >> 8) / float(1 << 24) * 2.0f - 1.0f;
  }
  return v;
}

// max |C - A Bᵀ| over C [M, N], the reference summed in double.
double max_error(int M, int N, int K, const std::vector<float>& A, const std::vector<float>& B,
                 const std::vector<float>& C) {
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += double(A[i * K + k]) * double(B[j * K + k]);
      worst = std::fmax(worst, std::fabs(double(C[i * N + j]) - ref));
    }
  return worst;
}

}  // namespace

TEST_CASE("tiled_matmul_abt equals A Bᵀ on the CPU within 1e-3") {
  if (!cuda_device_available()) {
    std::printf("skipped: no CUDA device\n");
    return;
  }
  // {M, N, K}: the chapter's sizes, one element, multiples of 16, a K shorter than a tile,
  // and a wide C with several block columns.
  const int sizes[][3] = {{37, 21, 45}, {1, 1, 1}, {64, 48, 32}, {5, 70, 3}, {40, 100, 17}};
  for (const auto& s : sizes) {
    const int M = s[0], N = s[1], K = s[2];
    const std::vector<float> A = values(size_t(M) * K, 1), B = values(size_t(N) * K, 2);
    std::vector<float> C(size_t(M) * N, NAN);
    INFO("M = " << M << ", N = " << N << ", K = " << K);
    REQUIRE(tiled_matmul_abt(M, N, K, A.data(), B.data(), C.data()) == "");
    CHECK(max_error(M, N, K, A, B, C) < 1e-3);
  }
}
