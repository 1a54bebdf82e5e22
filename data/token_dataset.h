// TokenDataset: a folder of token ids as nanoGPT's data/shakespeare/prepare.py and
// data/openwebtext/prepare.py write them, and as `attic data bpe` does:
//
//   train.bin, val.bin   the ids, back to back, little-endian uint16 (or uint32 when the
//                        vocabulary needs more than 16 bits); read through a memory map, so a
//                        split of any size costs no memory until windows are drawn from it
//   tokenizer.bpe        the BpeTokenizer that wrote them (data/bpe.h); optional
//   meta.json            {"dtype": "uint16", "vocab_size": N, "train_chars": .., "val_chars": ..,
//                        "train_tokens": .., "val_tokens": ..}; optional (nanoGPT writes none:
//                        then uint16, and the vocabulary is the model's)
#pragma once

#include <memory>
#include <string>

#include "data/bpe.h"
#include "data/dataset.h"
#include "util/mapped_file.h"

namespace attic {

class TokenDataset : public Dataset {
 public:
  // Reads dir; throws naming the file for one missing, empty, of a size that is no whole
  // number of ids, a meta.json that does not match the files, or an id beyond the vocabulary
  // (checked when there is a tokenizer or a vocab_size).
  static TokenDataset open(const std::string& dir);

  bool has_tokenizer() const override { return tokenizer_ != nullptr; }
  const Tokenizer& tokenizer() const override;
  int64_t vocab_size() const override { return vocab_size_; }
  int64_t size(Split split) const override { return split == Split::Train ? train_.n : val_.n; }
  double chars_per_token(Split split) const override;
  Batch get_batch(Split split, int64_t B, int64_t T, Generator& gen) const override;
  Batch get_windows(Split split, const std::vector<int64_t>& starts, int64_t T) const override;
  std::string describe() const override;

  // The ids of [start, start + n) of the split, int64 [n].
  Tensor slice(Split split, int64_t start, int64_t n) const;
  // The largest id in either split.
  int64_t max_id() const;

 private:
  struct Ids {
    std::shared_ptr<util::MappedFile> file;
    int64_t n = 0;
    int64_t chars = 0;  // meta.json's, 0 when unknown
  };
  int64_t id_at(const Ids& ids, int64_t i) const;

  std::string dir_;
  int bytes_per_id_ = 2;
  Ids train_, val_;
  std::shared_ptr<BpeTokenizer> tokenizer_;
  int64_t vocab_size_ = 0;
};

// What `attic data bpe` writes: text's first int(n · train_fraction) bytes, encoded, as
// train.bin, the rest as val.bin (the split of nanoGPT's data/shakespeare/prepare.py, and the
// same characters as TextDataset's), with tokenizer.bpe and meta.json. Each file is atomic.
struct TokenFolderStats {
  int64_t train_tokens = 0, val_tokens = 0, train_chars = 0, val_chars = 0;
};
TokenFolderStats write_token_folder(const std::string& dir, const BpeTokenizer& tok, const std::string& text,
                                    double train_fraction = 0.9);

}  // namespace attic
