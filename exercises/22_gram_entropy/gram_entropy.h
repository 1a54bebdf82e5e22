// Chapter 22's exercise: how collapsed are a block's token representations? The Rényi
// entropy (Rényi 1961) of the normalized spectrum of their Gram matrix.
#pragma once

#include <vector>

// h [T, C] (row-major) -> S_α with
//   G = H Hᵀ [T, T],  λ = eigenvalues of G,  p_j = λ_j / Σ λ,  S_α = ln(Σ_j p_j^α) / (1 − α)
// (α > 0, α ≠ 1). Use util/symmetric_eigen.h for λ; an eigenvalue that rounding made
// slightly negative counts as 0.
double gram_renyi_entropy(const std::vector<double>& h, int T, int C, double alpha);
