// Chapter 10's exercise: fill in the three TODOs (bigram.h says what each one computes).
#include "bigram.h"

#include <stdexcept>

using namespace attic;

Tensor bigram_counts(const Tensor& ids, int64_t V) {
  // TODO: counts[a, b] = #{t < N - 1 : ids[t] = a and ids[t + 1] = b}, [V, V] float64
  // (bigram.h), with tensor ops rather than a loop over the tokens.
  (void)ids;
  return zeros({V, V}, kFloat64);  // placeholder: every count 0
}

Tensor bigram_probs(const Tensor& counts, double alpha) {
  // TODO: P[a, b] = (counts[a, b] + alpha) / (Σ_b' counts[a, b'] + V alpha), [V, V]
  // (bigram.h).
  (void)alpha;
  return counts;  // placeholder: the counts themselves, not probabilities
}

double bigram_nll(const Tensor& P, const Tensor& ids) {
  // TODO: -(1 / (N - 1)) Σ_t ln P[ids[t], ids[t + 1]] over the N - 1 pairs, +inf when some
  // pair has probability 0 (bigram.h).
  (void)P, (void)ids;
  throw std::logic_error("TODO: bigram_nll (exercises/10_bigram_counts/bigram.cpp)");
}
