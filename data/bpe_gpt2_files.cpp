// GPT-2's own tokenizer files, encoder.json and vocab.bpe, as OpenAI's gpt-2 (src/encoder.py)
// reads them and tiktoken's data_gym_to_mergeable_bpe_ranks (tiktoken/load.py) turns them into
// ranks. Hugging Face's vocab.json and merges.txt are the same two files under other names.
#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "data/bpe.h"
#include "tensor/error.h"
#include "util/files.h"
#include "util/json.h"
#include "util/quote_value.h"
#include "util/utf8.h"

namespace attic {

namespace {

// The 188 bytes that bytes_to_unicode writes as themselves: '!'..'~', U+00A1..U+00AC and
// U+00AE..U+00FF, the printable characters of Latin-1 but the space and the soft hyphen.
bool stands_for_itself(int b) {
  return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
}

std::string utf8_of(char32_t c) {  // c < U+0800: one or two bytes
  if (c < 0x80) return std::string(1, char(c));
  return {char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
}

std::string quoted(std::string_view s) { return util::quote_value(std::string(s)); }

}  // namespace

char32_t gpt2_byte_char(unsigned char byte) {
  if (stands_for_itself(byte)) return byte;
  char32_t c = 0x100;  // the others count up from U+0100 in byte order
  for (int b = 0; b < byte; ++b) c += !stands_for_itself(b);
  return c;
}

// encoder.json [token -> id] and vocab.bpe ["#version: 0.2", then one merge "A B" a line] ->
// the tokenizer of their ranks, as data_gym_to_mergeable_bpe_ranks builds them: the 256 bytes
// first, those that stand for themselves and then the others, each group in byte order (the
// order of their bytes_to_unicode characters); then merge k of vocab.bpe, the bytes of A and B
// together, as rank 256 + k. encoder.json must give every token its rank as id; its
// <|endoftext|> must be the id after the last rank, and <|startoftext|> is ignored, as there.
BpeTokenizer BpeTokenizer::from_gpt2_files(const std::string& encoder_json_path,
                                           const std::string& vocab_bpe_path) {
  const std::string json_name = "GPT-2 encoder.json " + util::quote_value(encoder_json_path, 400);
  const std::string bpe_name = "GPT-2 vocab.bpe " + util::quote_value(vocab_bpe_path, 400);
  std::unordered_map<std::string, char> byte_of;  // a byte's character, in UTF-8 -> the byte
  for (int b = 0; b < 256; ++b) byte_of[utf8_of(gpt2_byte_char(uint8_t(b)))] = char(b);
  // A token written in those characters -> its bytes; anything else throws, naming `at`.
  auto token_bytes_of = [&](std::string_view text, const std::string& at) {
    std::string bytes;
    for (size_t pos = 0; pos < text.size();) {
      const size_t n = std::max<size_t>(util::utf8_sequence_length(text, pos), 1);
      const auto it = byte_of.find(std::string(text.substr(pos, n)));
      ATTIC_CHECK(it != byte_of.end(), at, ": the token ", quoted(text), " holds ",
                  quoted(text.substr(pos, n)), ", none of bytes_to_unicode's 256 characters");
      bytes += it->second;
      pos += n;
    }
    ATTIC_CHECK(!bytes.empty(), at, ": a token is empty");
    return bytes;
  };

  std::vector<std::string> tokens;  // the bytes that stand for themselves, then the others
  for (int b = 0; b < 256; ++b)
    if (stands_for_itself(b)) tokens.push_back(std::string(1, char(b)));
  for (int b = 0; b < 256; ++b)
    if (!stands_for_itself(b)) tokens.push_back(std::string(1, char(b)));
  std::unordered_map<std::string, int64_t> ranks;  // token bytes -> rank
  for (size_t r = 0; r < tokens.size(); ++r) ranks[tokens[r]] = int64_t(r);

  const std::string merges = util::read_text_file(vocab_bpe_path, "GPT-2 vocab.bpe");
  size_t line_no = 0;
  for (size_t pos = 0; pos < merges.size();) {
    const size_t eol = std::min(merges.find('\n', pos), merges.size());
    const std::string_view line = std::string_view(merges).substr(pos, eol - pos);
    pos = eol + 1;
    if (++line_no == 1 && line.starts_with("#version")) continue;
    const std::string at = bpe_name + " line " + std::to_string(line_no);
    const size_t space = line.find(' ');
    const bool two_fields = space != line.npos && line.find(' ', space + 1) == line.npos;
    ATTIC_CHECK(two_fields, at, ": expected a merge 'A B', two tokens and one space, got ",
                quoted(line));
    const std::string token = token_bytes_of(line.substr(0, space), at) +
                              token_bytes_of(line.substr(space + 1), at);
    const auto [it, fresh] = ranks.emplace(token, int64_t(tokens.size()));
    ATTIC_CHECK(fresh, at, ": the merge ", quoted(line), " makes ", quoted(token),
                ", which is rank ", it->second, " already");
    tokens.push_back(token);
  }

  json::Value encoder;
  try {
    encoder = json::parse(util::read_text_file(encoder_json_path, "GPT-2 encoder.json"));
  } catch (const Error& e) {
    fail(json_name, ": ", e.what());
  }
  ATTIC_CHECK(encoder.is_object(), json_name, ": expected an object of token -> id, got a ",
              json::type_name(encoder.type()));
  size_t matched = 0;
  for (const auto& [key, id] : encoder.as_object()) {
    ATTIC_CHECK(id.is_int(), json_name, ": the id of ", quoted(key), " is not a whole number");
    if (key == "<|startoftext|>") continue;
    if (key == kEndOfText) {
      ATTIC_CHECK(id.as_int() == int64_t(tokens.size()), json_name, ": <|endoftext|> has id ",
                  id.as_int(), ", but it must follow the last rank: ", bpe_name, " makes ",
                  tokens.size(), " ranks");
      continue;
    }
    const auto it = ranks.find(token_bytes_of(key, json_name));
    ATTIC_CHECK(it != ranks.end(), json_name, ": the token ", quoted(key), " (id ", id.as_int(),
                ") is not made by ", bpe_name);
    ATTIC_CHECK(it->second == id.as_int(), json_name, ": the token ", quoted(key), " has id ",
                id.as_int(), ", but ", bpe_name, " makes it rank ", it->second);
    ++matched;
  }
  ATTIC_CHECK(matched == tokens.size(), json_name, " holds ", matched, " tokens, but ", bpe_name,
              " makes ", tokens.size(), " (256 bytes and ", tokens.size() - 256, " merges)");
  return BpeTokenizer(std::move(tokens));
}

}  // namespace attic
