// CharTokenizer: nanoGPT's character-level tokenizer. The vocabulary is every distinct
// byte of a text, sorted by byte value; a character's id is its place in that order.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "data/tokenizer_base.h"

namespace attic {

class CharTokenizer : public Tokenizer {
 public:
  // The sorted distinct bytes of text (nanoGPT's sorted(set(text))). Empty text throws.
  static CharTokenizer from_text(const std::string& text);
  // A vocabulary saved by vocabulary(): its chars in id order, each once.
  static CharTokenizer from_vocabulary(const std::string& vocabulary);

  int64_t vocab_size() const override { return int64_t(vocab_.size()); }
  // The chars in id order: vocabulary()[id] is the char of id.
  const std::string& vocabulary() const { return vocab_; }

  // text [N chars] -> ids [N]; a char outside the vocabulary throws, naming it.
  std::vector<int64_t> encode(std::string_view text) const override;
  // ids [N] -> text [N chars]; an id outside [0, vocab_size) throws.
  std::string decode(const std::vector<int64_t>& ids) const override;
  std::string kind() const override { return "char"; }
  std::string record() const override { return vocab_; }

 private:
  explicit CharTokenizer(std::string vocabulary);

  std::string vocab_;
  std::array<int32_t, 256> id_of_{};  // byte -> id, -1 for bytes outside the vocabulary
};

// A char as a C literal, for messages and printing: 'a', '\n', '\'', '\x07'.
std::string char_literal(char c);

}  // namespace attic
