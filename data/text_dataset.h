// TextDataset: a text file as nanoGPT's shakespeare_char sees it. The text is tokenized
// one character at a time, its first 90% is the train split and the rest the val split,
// and a batch is B windows of T tokens at random offsets, each paired with the window one
// token later.
#pragma once

#include <string>
#include <vector>

#include "data/batch.h"
#include "data/dataset.h"
#include "data/tokenizer.h"
#include "tensor/random.h"
#include "tensor/tensor.h"

namespace attic {

// The number of train tokens of an n-token text: int(n * train_fraction) as Python
// computes it (a double product truncated toward zero), so splits match nanoGPT's.
int64_t train_split_size(int64_t n, double train_fraction = 0.9);

class TextDataset : public Dataset {
 public:
  // The file's bytes; throws naming the path if it is missing, unreadable or empty.
  static TextDataset from_file(const std::string& path, double train_fraction = 0.9);
  // A path, or a generated task's name ("digit_mul:4", data/digit_mul.h).
  static TextDataset from_name(const std::string& name, double train_fraction = 0.9);
  static TextDataset from_text(const std::string& text, double train_fraction = 0.9);

  const CharTokenizer& tokenizer() const override { return tokenizer_; }
  int64_t vocab_size() const override { return tokenizer_.vocab_size(); }
  // The whole text as ids, int64 [N].
  const Tensor& tokens() const { return tokens_; }
  // Train = tokens[0 : n_train], val = tokens[n_train : N]; views of tokens().
  const Tensor& data(Split split) const { return split == Split::Train ? train_ : val_; }
  int64_t size(Split split) const override { return data(split).numel(); }
  double chars_per_token(Split) const override { return 1.0; }
  std::string describe() const override { return std::to_string(tokens_.numel()) + " characters"; }

  // B windows at offsets i ~ U[0, len - T) of the split (len > T needed):
  // x[b] = data[i_b : i_b + T], y[b] = data[i_b + 1 : i_b + 1 + T], both int64 [B, T].
  Batch get_batch(Split split, int64_t B, int64_t T, Generator& gen) const override;
  Batch get_windows(Split split, const std::vector<int64_t>& starts, int64_t T) const override;

 private:
  TextDataset(const std::string& text, double train_fraction);

  CharTokenizer tokenizer_;
  Tensor tokens_;  // [N]
  Tensor train_;   // [n_train]
  Tensor val_;     // [N - n_train]
};

// The places default_dataset_path() looks, in order: $ATTIC_DATA_DIR/shakespeare_char/
// input.txt (when ATTIC_DATA_DIR is set), the source tree's data/shakespeare_char/input.txt
// (when built with ATTIC_SOURCE_DIR), and ./data/shakespeare_char/input.txt.
std::vector<std::string> default_dataset_candidates();
// The first of default_dataset_candidates() that is a file; throws listing them all if none.
std::string default_dataset_path();

}  // namespace attic
