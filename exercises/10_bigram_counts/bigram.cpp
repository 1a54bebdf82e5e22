// Chapter 10's exercise: fill in the three TODOs (bigram.h says what each one computes).
#include "bigram.h"

#include <stdexcept>

using namespace attic;

Tensor bigram_counts(const Tensor& ids, int64_t V) {
  // TODO: one count per pair (ids[t], ids[t + 1]), with tensor ops (no loop over the tokens).
  // Hint: the pair (a, b) is the single index a·V + b of a [V·V] vector; narrow gives the
  // views ids[0 .. N-2] and ids[1 .. N-1]; index_add adds src[t] into out[index[t]]; view
  // turns [V·V] into [V, V].
  (void)ids;
  return zeros({V, V}, kFloat64);  // placeholder: every count 0
}

Tensor bigram_probs(const Tensor& counts, double alpha) {
  // TODO: add alpha to every count, then divide each row by its sum (sum over dim 1 with
  // keepdim = true broadcasts back over the row).
  (void)alpha;
  return counts;  // placeholder: the counts themselves, not probabilities
}

double bigram_nll(const Tensor& P, const Tensor& ids) {
  // TODO: pick P[ids[t], ids[t + 1]] for every t (index_select on P.view({-1}) with the
  // same a·V + b index), then -mean(log(...)).
  (void)P, (void)ids;
  throw std::logic_error("TODO: bigram_nll (exercises/10_bigram_counts/bigram.cpp)");
}
