// The Rényi entropy of a Gram spectrum: the eigenvalues of H Hᵀ by cyclic Jacobi, then
// S_α = ln(Σ p^α)/(1 − α), for a collapsed H, a flat one and a random one.
#include <cmath>
#include <cstdio>

#include "lab/renyi_entropy.h"
#include "ops/ops.h"
#include "tensor/random.h"
#include "util/symmetric_eigen.h"

using namespace attic;
using namespace attic::lab;

int main() {
  // [[2, 1, 0], [1, 2, 1], [0, 1, 2]] has eigenvalues 2 − √2, 2, 2 + √2.
  const EigenResult r = symmetric_eigenvalues({2, 1, 0, 1, 2, 1, 0, 1, 2}, 3);
  std::printf("eigenvalues %.6f %.6f %.6f in %d sweeps (2 - sqrt 2 = %.6f)\n", r.values[0], r.values[1],
              r.values[2], r.sweeps, 2 - std::sqrt(2.0));

  manual_seed(0);
  const int64_t T = 9, C = 16;
  const Tensor direction = randn({1, C}, kFloat64);
  const Tensor collapsed = randn({T, 1}, kFloat64) * direction;  // every token on one line
  const Tensor random = randn({T, C}, kFloat64);
  std::vector<double> flat(size_t(T * C), 0.0);
  for (int64_t t = 0; t < T; ++t) flat[size_t(t * C + t)] = 3.0;  // orthogonal, equal norms
  const Tensor orthogonal = from_vector(flat, {T, C});
  std::printf("ln T = %.4f\n", std::log(double(T)));
  for (const auto& [name, h] : {std::pair{"collapsed (rank 1)", collapsed}, {"orthogonal", orthogonal},
                                {"random", random}, {"random + offset 5", random + 5.0}}) {
    const std::vector<double> p = gram_spectrum(h);
    std::printf("%-18s  largest p %.3f  S_0.99 %.4f  centred S_0.99 %.4f\n", name, p.back(),
                renyi_entropy(p, 0.99), renyi_entropy(gram_spectrum(h, true), 0.99));
  }
  return 0;
}
