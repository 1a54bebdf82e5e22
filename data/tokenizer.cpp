#include "data/tokenizer.h"

#include <algorithm>

#include "tensor/error.h"

namespace attic {

// c -> "'c'", with C escapes for quote, backslash, tab, newline, carriage return, and
// '\xNN' (two lowercase hex digits) for every other byte outside printable ASCII.
std::string char_literal(char c) {
  const unsigned char b = static_cast<unsigned char>(c);
  switch (c) {
    case '\n': return "'\\n'";
    case '\t': return "'\\t'";
    case '\r': return "'\\r'";
    case '\\': return "'\\\\'";
    case '\'': return "'\\''";
    default: break;
  }
  if (b >= 0x20 && b < 0x7f) return std::string("'") + c + "'";
  const char* hex = "0123456789abcdef";
  return std::string("'\\x") + hex[b >> 4] + hex[b & 15] + "'";
}

// vocabulary [V chars, distinct] -> id_of_[byte] = its place, or -1.
CharTokenizer::CharTokenizer(std::string vocabulary) : vocab_(std::move(vocabulary)) {
  ATTIC_CHECK(!vocab_.empty(), "CharTokenizer: the vocabulary is empty");
  id_of_.fill(-1);
  for (size_t i = 0; i < vocab_.size(); ++i) {
    const unsigned char b = static_cast<unsigned char>(vocab_[i]);
    ATTIC_CHECK(id_of_[b] < 0, "CharTokenizer: the vocabulary holds ", char_literal(vocab_[i]),
                " twice, at positions ", id_of_[b], " and ", i);
    id_of_[b] = int32_t(i);
  }
}

// text [N chars] -> vocabulary = the bytes that occur, in increasing byte value (unsigned,
// so bytes >= 0x80 sort after ASCII as in Python's sorted()).
CharTokenizer CharTokenizer::from_text(const std::string& text) {
  ATTIC_CHECK(!text.empty(), "CharTokenizer: the text is empty; a vocabulary needs at least "
              "one character");
  std::array<bool, 256> seen{};
  for (char c : text) seen[static_cast<unsigned char>(c)] = true;
  std::string vocab;
  for (int b = 0; b < 256; ++b)
    if (seen[size_t(b)]) vocab.push_back(static_cast<char>(b));
  return CharTokenizer(std::move(vocab));
}

// vocabulary [V chars] in id order -> the tokenizer that gives id i to vocabulary[i].
CharTokenizer CharTokenizer::from_vocabulary(const std::string& vocabulary) {
  return CharTokenizer(vocabulary);
}

// text [N chars] -> ids [N], ids[i] = id_of(text[i]).
std::vector<int64_t> CharTokenizer::encode(std::string_view text) const {
  std::vector<int64_t> ids(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const int32_t id = id_of_[static_cast<unsigned char>(text[i])];
    ATTIC_CHECK(id >= 0, "CharTokenizer::encode: character ", char_literal(text[i]),
                " at position ", i, " is not in the vocabulary of ", vocab_.size(),
                " characters");
    ids[i] = id;
  }
  return ids;
}

// ids [N] -> text [N chars], text[i] = vocabulary[ids[i]].
std::string CharTokenizer::decode(const std::vector<int64_t>& ids) const {
  std::string text(ids.size(), '\0');
  for (size_t i = 0; i < ids.size(); ++i) {
    ATTIC_CHECK(ids[i] >= 0 && ids[i] < vocab_size(), "CharTokenizer::decode: id ", ids[i],
                " at position ", i, " is out of range for vocab size ", vocab_.size());
    text[i] = vocab_[size_t(ids[i])];
  }
  return text;
}

}  // namespace attic
