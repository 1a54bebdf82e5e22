// Chapter 7's exercise: fill in the three TODOs (unigram.h says what each one computes).
#include "unigram.h"

#include <stdexcept>

#include "ops/ops.h"

using namespace attic;

Tensor char_counts(const Tensor& ids, int64_t V) {
  // TODO: one count per occurrence, with tensor ops (no loop over the tokens): index_add adds
  // src[t] into out[index[t]].
  (void)ids;
  return zeros({V}, kFloat64);  // placeholder: every count 0
}

double unigram_val_loss(const TextDataset& ds) {
  // TODO: the counts of the train split, p, then -mean(ln p[y]) over the val split
  // (index_select picks p[y] for every y).
  (void)ds;
  throw std::logic_error("TODO: unigram_val_loss (exercises/07_unigram/unigram.cpp)");
}

std::string missing_chars(const TextDataset& ds, Split split) {
  // TODO: the characters whose count in the split is 0 (ds.tokenizer().vocabulary()[c] is
  // the character of id c).
  (void)ds, (void)split;
  return "TODO";
}
