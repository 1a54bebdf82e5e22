// The solution of chapter 22's exercise: the Rényi entropy of the Gram spectrum.
//
// The chapter's question: why is the entropy of orthogonal equal-norm tokens the same for every α?
// Answer: G = H Hᵀ is then c I for the n tokens (c their squared norm), so its n
// eigenvalues are equal and p_j = 1/n. For a uniform p, Σ_j p_j^α = n · n^(-α) = n^(1 - α),
// and S_α = ln(n^(1 - α)) / (1 - α) = ln n whatever α is. The Rényi entropies of a
// distribution agree for all α only when it is uniform on its support.
#include "gram_entropy.h"

#include <algorithm>
#include <cmath>

#include "util/symmetric_eigen.h"

// h [T, C] -> S_α
double gram_renyi_entropy(const std::vector<double>& h, int T, int C, double alpha) {
  std::vector<double> g(size_t(T) * T, 0.0);  // G = H Hᵀ
  for (int i = 0; i < T; ++i)
    for (int j = 0; j < T; ++j)
      for (int c = 0; c < C; ++c) g[i * T + j] += h[i * C + c] * h[j * C + c];
  std::vector<double> lambda = attic::symmetric_eigenvalues(g, T).values;
  double total = 0.0;
  for (double& l : lambda) total += (l = std::max(l, 0.0));
  double sum = 0.0;
  for (double l : lambda)
    if (l > 0) sum += std::pow(l / total, alpha);
  return std::log(sum) / (1.0 - alpha);
}
