// attic eval --task=digit_mul: how well a checkpoint trained on the digit-multiplication
// task (data/digit_mul.h) multiplies. It draws n problems a*b that are not in the train
// split, samples an answer for each after the prompt "a*b = " (up to the newline), and
// prints exact-match accuracy, R², MAE and MAPE of the predicted product, and how many
// answers did not parse, as the README of Vadimbuildercxx/reflex_attention reports them.
#pragma once

#include <cstdint>
#include <string>

#include "train/restore.h"
#include "data/digit_mul.h"
#include "data/text_dataset.h"

namespace attic::lab {

struct DigitMulEval {
  int64_t n = 200;           // problems
  int64_t seed = 1;          // draws the problems, then the samples
  double temperature = 1.0;  // the fork samples at 1 with no top-k
  int64_t top_k = 0;
  int64_t show = 3;          // problems printed with their answers
};

// The digits of a digit_mul dataset's numbers (from its first line), or 0 when data is not
// one.
int64_t dataset_digits(const TextDataset& data);

// r: the restored checkpoint; data: its dataset (the problems avoid its train split).
// Prints the report and returns the score.
ProductScore eval_digit_mul(train::Restored& r, const TextDataset& data, const DigitMulEval& options);

}  // namespace attic::lab
