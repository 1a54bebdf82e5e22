// Chapter 7's exercise: the val loss of a model that ignores the context and always predicts
// each character with its frequency in train (a unigram model). It is the score a trained
// model has to beat by reading the context.
#pragma once

#include <string>

#include "data/data.h"
#include "ops/ops.h"

// ids [N] int64, every id in [0, V) -> counts [V] float64: counts[c] = #{t : ids[t] = c}.
attic::Tensor char_counts(const attic::Tensor& ids, int64_t V);

// p = counts / sum(counts) over the train split, [V]; over the val tokens y [N]:
//   loss = -(1/N) Σ_t ln p[y_t]      (in nats: a natural logarithm)
double unigram_val_loss(const attic::TextDataset& ds);

// The characters of the vocabulary that never occur in the split, in id order.
std::string missing_chars(const attic::TextDataset& ds, attic::Split split);
