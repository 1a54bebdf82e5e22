// Dataset: what the training loop draws batches from. Two kinds: TextDataset
// (data/text_dataset.h), a text read one byte per token, and TokenDataset
// (data/token_dataset.h), the train.bin and val.bin of token ids that nanoGPT's prepare.py
// scripts and `attic data bpe` write. open_dataset picks by name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/batch.h"
#include "data/tokenizer_base.h"
#include "tensor/random.h"

namespace attic {

class Dataset {
 public:
  virtual ~Dataset() = default;
  // Its tokenizer; has_tokenizer() is false for a folder of ids alone (nanoGPT's
  // data/openwebtext), whose ids are then checked against the model's vocabulary instead.
  virtual bool has_tokenizer() const { return true; }
  virtual const Tokenizer& tokenizer() const = 0;
  // The tokenizer's vocabulary, or, without one, the largest id + 1.
  virtual int64_t vocab_size() const = 0;
  virtual int64_t size(Split split) const = 0;  // tokens
  // Characters (bytes of text) per token of the split, for bits per character: 1 for a text
  // read a byte at a time; 0 when unknown (a folder without meta.json).
  virtual double chars_per_token(Split split) const = 0;
  // B windows at offsets i ~ U[0, len - T) of the split (len > T needed), drawn in order
  // b = 0..B-1 as nanoGPT's get_batch draws them:
  // x[b] = data[i_b : i_b + T], y[b] = data[i_b + 1 : i_b + 1 + T], both int64 [B, T].
  virtual Batch get_batch(Split split, int64_t B, int64_t T, Generator& gen) const = 0;
  // The windows at the given offsets, in their order: x[b] = data[s_b : s_b + T] and
  // y[b] = data[s_b + 1 : s_b + 1 + T], int64 [starts.size(), T]; each 0 <= s_b < len - T.
  // An epoch (train/epoch_order.h) reads the split through it.
  virtual Batch get_windows(Split split, const std::vector<int64_t>& starts, int64_t T) const = 0;
  // "12 characters", "301966 tokens": how the training log names its size.
  virtual std::string describe() const = 0;
};

// name: a text file; digit_mul:4 or digit_mul:5 (generated, data/digit_mul.h); a folder with
// train.bin and val.bin (TokenDataset), or with input.txt (its text); or, as in nanoGPT's
// data_dir = os.path.join('data', dataset), a folder name under data/ (ATTIC_DATA_DIR, the
// source tree's, or ./data): dataset = shakespeare_char reads data/shakespeare_char/input.txt.
std::unique_ptr<Dataset> open_dataset(const std::string& name, double train_fraction = 0.9);

}  // namespace attic
