// Chapter 14: the naive GEMM (three loops) and the fast one (packed, blocked, vectorized,
// threaded) compute the same product, for every layout the training step uses.
//   C[M, N] = A[M, K] @ B[K, N],  A(i, k) = A[i * rsa + k * csa]  (likewise B)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "tensor/cpu/gemm.h"
#include "tensor/threads.h"

using namespace attic;

int main() {
  // Sizes with a ragged edge in every dim: 300 rows are not a whole number of 14-row
  // micro-tiles, 200 columns not of 32-wide strips, and K = 300 spans two KC blocks of 256.
  const int64_t M = 300, N = 200, K = 300;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> A(size_t(M * K)), B(size_t(K * N));
  for (float& x : A) x = u(rng);
  for (float& x : B) x = u(rng);

  struct Layout {
    const char* name;
    bool ta, tb;  // A (or B) stored transposed, as dW = dYᵀ X (or y = x Wᵀ) reads it
  };
  for (const Layout& l : {Layout{"A @ B  ", false, false}, Layout{"A @ Wt ", false, true},
                          Layout{"At @ B ", true, false}}) {
    const int64_t rsa = l.ta ? 1 : K, csa = l.ta ? M : 1;
    const int64_t rsb = l.tb ? 1 : N, csb = l.tb ? K : 1;
    std::vector<float> slow(size_t(M * N)), fast(size_t(M * N)), fast2(size_t(M * N));
    cpu::gemm_naive<float>(M, N, K, A.data(), rsa, csa, B.data(), rsb, csb, slow.data(), N);
    set_num_threads(1);
    cpu::gemm<float>(M, N, K, A.data(), rsa, csa, B.data(), rsb, csb, fast.data(), N);
    set_num_threads(2);
    cpu::gemm<float>(M, N, K, A.data(), rsa, csa, B.data(), rsb, csb, fast2.data(), N);
    // The two sum K products in different orders (the fast one in KC blocks, with FMAs),
    // so they agree to rounding, relative to the size of the terms: |C| ≲ √K.
    double worst = 0;
    for (size_t i = 0; i < slow.size(); ++i)
      worst = std::max(worst, double(std::fabs(slow[i] - fast[i])));
    std::printf("%s naive vs fast: max |diff| < 1e-4: %s;  1 thread == 2 threads: %s\n", l.name,
                worst < 1e-4 ? "yes" : "NO", fast == fast2 ? "bit for bit" : "NO");
  }
  return 0;
}
