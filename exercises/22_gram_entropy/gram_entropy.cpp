// Chapter 22's exercise: the Rényi entropy of the Gram spectrum of T token representations.
// Build and check it with `make exercise N=22`; the solution is in solution/gram_entropy.cpp.
#include "gram_entropy.h"

#include "util/symmetric_eigen.h"

// h [T, C] -> S_α
double gram_renyi_entropy(const std::vector<double>& h, int T, int C, double alpha) {
  // TODO: S_α = ln(Σ_j p_j^α) / (1 − α), p_j = λ_j / Σ λ, λ the eigenvalues of G = H Hᵀ [T, T]
  //       (gram_entropy.h); an eigenvalue that rounding made slightly negative counts as 0.
  (void)h, (void)T, (void)C, (void)alpha;
  return 0.0;
}
