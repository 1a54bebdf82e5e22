// Chapter 22's exercise: the Rényi entropy of the Gram spectrum of T token representations.
// Build and check it with `make exercise N=22`; the solution is in solution/gram_entropy.cpp.
#include "gram_entropy.h"

#include "util/symmetric_eigen.h"

// h [T, C] -> S_α
double gram_renyi_entropy(const std::vector<double>& h, int T, int C, double alpha) {
  // TODO 1: G = H Hᵀ, T×T row-major: G[i][j] = Σ_c h[i][c] h[j][c].
  // TODO 2: λ = attic::symmetric_eigenvalues(G, T).values; clamp negatives to 0.
  // TODO 3: p = λ / Σλ; return ln(Σ p^α) / (1 − α), skipping the p that are 0.
  (void)h, (void)T, (void)C, (void)alpha;
  return 0.0;
}
