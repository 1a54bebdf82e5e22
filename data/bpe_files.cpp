// BpeTokenizer's rank files: tiktoken's .tiktoken format, and attic's saved form, which is a
// header line and then the same lines.
#include <algorithm>
#include <charconv>
#include <optional>

#include "data/base64.h"
#include "data/bpe.h"
#include "tensor/error.h"
#include "util/atomic_file.h"
#include "util/files.h"
#include "util/quote_value.h"

namespace attic {

namespace {

constexpr std::string_view kHeader = "attic-bpe 1 pattern=gpt2 special=<|endoftext|>:";

std::string quoted(std::string_view s) { return util::quote_value(std::string(s)); }

// s -> the whole number it spells, or nullopt (a sign, a space, anything else: nullopt).
std::optional<int64_t> whole_number(std::string_view s) {
  int64_t n = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || n < 0) return std::nullopt;
  return n;
}

// text, the number of its first line, the file's name for messages -> the tokens of its lines
// "BASE64 RANK" (OpenAI's tiktoken, tiktoken/load.py, load_tiktoken_bpe; empty lines are
// skipped, as there). The ranks must run 0, 1, 2, ..., as dump_tiktoken_bpe writes them.
std::vector<std::string> read_rank_lines(std::string_view text, size_t line_no,
                                         const std::string& name) {
  std::vector<std::string> tokens;
  for (size_t pos = 0; pos < text.size(); ++line_no) {
    const size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.empty()) continue;
    const std::string at = name + " line " + std::to_string(line_no);
    const size_t space = line.find(' ');
    const bool two_fields = space != line.npos && line.find(' ', space + 1) == line.npos;
    ATTIC_CHECK(two_fields, at, ": expected 'BASE64 RANK', got ", quoted(line));
    const std::optional<std::string> token = base64_decode(line.substr(0, space));
    ATTIC_CHECK(token && !token->empty(), at, ": ", quoted(line.substr(0, space)),
                " is not the base64 of a token");
    const std::optional<int64_t> rank = whole_number(line.substr(space + 1));
    ATTIC_CHECK(rank, at, ": the rank ", quoted(line.substr(space + 1)), " is not a whole number");
    ATTIC_CHECK(*rank >= int64_t(tokens.size()), at, ": rank ", *rank, " again; the ranks must "
                "run 0, 1, 2, ..., each once");
    ATTIC_CHECK(*rank == int64_t(tokens.size()), at, ": rank ", *rank, " where rank ",
                tokens.size(), " comes next; the ranks must run 0, 1, 2, ... without a gap");
    tokens.push_back(*token);
  }
  return tokens;
}

// from_ranks, with the file's name in front of its message.
BpeTokenizer from_ranks_of(std::vector<std::string> tokens, const std::string& name) {
  try {
    return BpeTokenizer::from_ranks(std::move(tokens));
  } catch (const Error& e) {
    fail(name, ": ", e.what());
  }
}

// attic's form (see serialize), read from text for messages naming it `name`.
BpeTokenizer read_attic_form(std::string_view text, const std::string& name) {
  const size_t eol = std::min(text.find('\n'), text.size());
  const std::string_view header = text.substr(0, eol);
  const std::optional<int64_t> eot =
      header.starts_with(kHeader) ? whole_number(header.substr(kHeader.size())) : std::nullopt;
  ATTIC_CHECK(eot, name, " line 1: expected ", quoted(std::string(kHeader) + "N"), ", got ",
              quoted(header));
  const std::string_view lines = text.substr(std::min(eol + 1, text.size()));
  std::vector<std::string> tokens = read_rank_lines(lines, 2, name);
  ATTIC_CHECK(*eot == int64_t(tokens.size()), name, " line 1: <|endoftext|> is id ", *eot,
              ", but it must follow the last rank: the file holds ", tokens.size(), " ranks");
  return from_ranks_of(std::move(tokens), name);
}

}  // namespace

BpeTokenizer BpeTokenizer::from_tiktoken_file(const std::string& path) {
  const std::string name = "tiktoken file " + util::quote_value(path, 400);
  return from_ranks_of(read_rank_lines(util::read_text_file(path, "tiktoken file"), 1, name), name);
}

// "attic-bpe 1 pattern=gpt2 special=<|endoftext|>:N\n", then "BASE64 RANK\n" for ranks 0..N-1.
std::string BpeTokenizer::serialize() const {
  std::string text = std::string(kHeader) + std::to_string(tokens_.size()) + "\n";
  for (size_t r = 0; r < tokens_.size(); ++r)
    text += base64_encode(tokens_[r]) + " " + std::to_string(r) + "\n";
  return text;
}

BpeTokenizer BpeTokenizer::deserialize(const std::string& text) {
  return read_attic_form(text, "BpeTokenizer::deserialize: the text");
}

void BpeTokenizer::save(const std::string& path) const {
  util::check_output_file(path, "BPE tokenizer");
  util::write_file_atomic(path, serialize());
}

// path -> the tokenizer in attic's form, or in a plain tiktoken rank file (whose first line
// cannot start with "attic-bpe": that is no base64).
BpeTokenizer BpeTokenizer::load(const std::string& path) {
  const std::string text = util::read_text_file(path, "BPE tokenizer");
  const std::string name = "BPE tokenizer " + util::quote_value(path, 400);
  if (std::string_view(text).starts_with("attic-bpe")) return read_attic_form(text, name);
  return from_ranks_of(read_rank_lines(text, 1, name), name);
}

}  // namespace attic
