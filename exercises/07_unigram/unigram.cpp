// Chapter 7's exercise: fill in the three TODOs (unigram.h says what each one computes).
#include "unigram.h"

#include <stdexcept>

#include "ops/ops.h"

using namespace attic;

Tensor char_counts(const Tensor& ids, int64_t V) {
  // TODO: counts[c] = #{t : ids[t] = c}, [V] float64 (unigram.h), with tensor ops rather than
  // a loop over the tokens.
  (void)ids;
  return zeros({V}, kFloat64);  // placeholder: every count 0
}

double unigram_val_loss(const TextDataset& ds) {
  // TODO: -(1/N) Σ_t ln p[y_t] over the N val tokens y, with p the train split's character
  // frequencies (unigram.h).
  (void)ds;
  throw std::logic_error("TODO: unigram_val_loss (exercises/07_unigram/unigram.cpp)");
}

std::string missing_chars(const TextDataset& ds, Split split) {
  // TODO: the characters of the vocabulary that never occur in the split, in id order
  // (unigram.h).
  (void)ds, (void)split;
  return "TODO";
}
