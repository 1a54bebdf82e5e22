// BpeTokenizer: GPT-2's byte-level byte-pair encoding. Text is split into pieces by GPT-2's
// pattern (data/gpt2_pretokenize.h); each piece's bytes are merged into tokens, and a token's
// id is its rank, the place of its byte string in the merge order (as in GPT-2 and tiktoken).
// The 256 single bytes are tokens, so any bytes encode and decode back exactly. One special
// token, <|endoftext|>, takes the id after the last rank (50256 in GPT-2).
//
//   BpeTokenizer tok = BpeTokenizer::train(text, 1024);   // or from_gpt2_files, load
//   std::vector<int64_t> ids = tok.encode("Hello world<|endoftext|>");
//   std::string back = tok.decode(ids);                      // == the text
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "data/tokenizer_base.h"

namespace attic {

class BpeTokenizer : public Tokenizer {
 public:
  static constexpr std::string_view kEndOfText = "<|endoftext|>";

  // tokens[r] = the bytes of the token of rank r. Throws unless the tokens are distinct,
  // non-empty and include all 256 single bytes.
  static BpeTokenizer from_ranks(std::vector<std::string> tokens);
  // GPT-2's own files: encoder.json (token -> id) and vocab.bpe (the merges in order), both in
  // bytes_to_unicode's characters. Throws unless they describe the same ranks.
  static BpeTokenizer from_gpt2_files(const std::string& encoder_json_path,
                                      const std::string& vocab_bpe_path);
  // A tiktoken rank file (r50k_base.tiktoken): lines "base64(token bytes) rank".
  static BpeTokenizer from_tiktoken_file(const std::string& path);
  // minbpe's RegexTokenizer.train on the pieces of text: vocab_size - 257 merges, so that with
  // the 256 bytes and <|endoftext|> the vocabulary has vocab_size ids.
  static BpeTokenizer train(const std::string& text, int64_t vocab_size);

  // The saved form, valid UTF-8: "attic-bpe 1 pattern=gpt2 special=<|endoftext|>:N", then the
  // N ranks as tiktoken's rank-file lines.
  std::string serialize() const;
  static BpeTokenizer deserialize(const std::string& text);
  // serialize() written atomically; load reads it back, or a plain .tiktoken rank file.
  void save(const std::string& path) const;
  static BpeTokenizer load(const std::string& path);

  // The ranks and <|endoftext|>.
  int64_t vocab_size() const override { return int64_t(tokens_.size()) + 1; }
  // The id of <|endoftext|>: the number of ranks.
  int64_t eot_id() const { return int64_t(tokens_.size()); }
  // The bytes of id (kEndOfText for eot_id()); an id outside [0, vocab_size) throws.
  std::string_view token_bytes(int64_t id) const;

  // text -> ids, where each <|endoftext|> in the text is the special token (tiktoken's
  // encode(text, allowed_special="all")).
  std::vector<int64_t> encode(std::string_view text) const override;
  // text -> ids with <|endoftext|> encoded as ordinary text (tiktoken's encode_ordinary).
  std::vector<int64_t> encode_ordinary(std::string_view text) const;
  // ids -> their bytes, concatenated; an id outside [0, vocab_size) throws, naming it.
  std::string decode(const std::vector<int64_t>& ids) const override;
  std::string kind() const override { return "bpe"; }
  std::string record() const override { return serialize(); }

 private:
  // Hashes std::string and std::string_view alike, so a piece is looked up without a copy.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Cache = std::unordered_map<std::string_view, std::vector<int64_t>, Hash, std::equal_to<>>;

  explicit BpeTokenizer(std::vector<std::string> tokens);
  int64_t rank_of(std::string_view bytes) const;  // -1 when bytes is no token
  void merge_piece(std::string_view piece, std::vector<int64_t>& ids) const;
  void encode_ordinary_into(std::string_view text, Cache& cache, std::vector<int64_t>& ids) const;

  std::vector<std::string> tokens_;  // rank -> bytes
  std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> rank_of_;  // bytes -> rank
};

// GPT-2's bytes_to_unicode (OpenAI's gpt-2, src/encoder.py): a printable character for each
// byte, in which encoder.json and vocab.bpe write token bytes. Bytes '!'..'~', U+00A1..U+00AC
// and U+00AE..U+00FF stand for themselves; the other 68 take U+0100, U+0101, ... in byte order
// (so the space, 0x20, is U+0120 'Ġ').
char32_t gpt2_byte_char(unsigned char byte);

}  // namespace attic
