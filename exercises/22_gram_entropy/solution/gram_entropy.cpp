// The solution of chapter 22's exercise: the Rényi entropy of the Gram spectrum.
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
