// Tokenizer: what a language model's text goes through, both ways. attic has two:
// CharTokenizer (data/tokenizer.h), a token per byte, and BpeTokenizer (data/bpe.h),
// GPT-2's byte-level BPE. A checkpoint records which, and how to rebuild it (record()).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attic {

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  virtual int64_t vocab_size() const = 0;
  // text -> ids; what the tokenizer cannot encode throws attic::Error naming it.
  virtual std::vector<int64_t> encode(std::string_view text) const = 0;
  // ids -> text; an id outside [0, vocab_size) throws.
  virtual std::string decode(const std::vector<int64_t>& ids) const = 0;
  // "char" or "bpe".
  virtual std::string kind() const = 0;
  // What rebuilds it (make_tokenizer): the characters in id order, or the BPE's serialized
  // ranks. Valid UTF-8 for "bpe"; a checkpoint stores a char vocabulary as code points.
  virtual std::string record() const = 0;
  // The same tokenizer: the same kind and record.
  bool same_as(const Tokenizer& other) const { return kind() == other.kind() && record() == other.record(); }
};

// The tokenizer of kind ("char" or "bpe") rebuilt from its record(); throws for another kind
// or a record that is not one.
std::unique_ptr<Tokenizer> make_tokenizer(const std::string& kind, const std::string& record);

}  // namespace attic
