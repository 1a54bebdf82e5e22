// The Rényi entropy of a representation's Gram spectrum, the measure of representation
// collapse in Vadimbuildercxx/reflex_attention's notebook. For a block's output H [T, C]
// (one sequence, before ln_f):
//
//   λ = eigenvalues of the Gram matrix G = H Hᵀ [T, T]
//   p_j = λ_j / Σ λ                      (Σ λ = trace G = ‖H‖²_F)
//   S_α = ln(Σ_j p_j^α) / (1 − α)        (Rényi 1961), natural log, the fork's α = 0.99
//
// S is 0 when every token lies on one line (rank 1: the representations collapsed) and
// ln T when the T tokens are orthogonal with equal norms (the spectrum is flat).
#pragma once

#include <vector>

#include "tensor/tensor.h"

namespace attic::models {
class GPT;
}

namespace attic::lab {

// h [T, C] -> p [T], the normalized Gram spectrum, ascending, summing to 1; eigenvalues
// within rounding of 0 (below T·ε·λ_max) count as 0. centered: first
// subtract the mean token and scale every token to unit L2 norm (a zero token stays zero),
// the form representation-collapse studies use, so that the common offset and the tokens'
// lengths do not count. Throws attic::Error for a non-2-d h or an all-zero one.
std::vector<double> gram_spectrum(const Tensor& h, bool centered = false);

// p (non-negative, summing to 1) -> S_α = ln(Σ p_j^α) / (1 − α); α = 1 is the Shannon limit
// −Σ p ln p. α must be positive.
double renyi_entropy(const std::vector<double>& p, double alpha = 0.99);

// ids [N, T] -> S [n_layer][N]: S_α of block i's output (before ln_f) for sequence n, as
// block_outputs gives it, without a graph.
std::vector<std::vector<double>> block_entropies(models::GPT& gpt, const Tensor& ids, double alpha = 0.99,
                                                 bool centered = false);

}  // namespace attic::lab
