// Chapter 23: GPT-2's tokenizer files. tests/data/fixtures/ holds the BPE of 23_train_bpe
// (minbpe's 256 merges on the first 100,000 bytes of Shakespeare) twice: as tiktoken's rank
// file, and as GPT-2's encoder.json and vocab.bpe, which write each token's bytes in
// bytes_to_unicode's characters.
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "data/bpe.h"
#include "data/text_dataset.h"
#include "util/files.h"
#include "util/json.h"

using namespace attic;
namespace fs = std::filesystem;

// The UTF-8 of a code point below U+0800.
std::string utf8(char32_t c) {
  if (c < 0x80) return std::string(1, char(c));
  return {char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
}

// Bytes between quotes, a byte that is not printable ASCII written \xNN.
std::string shown(std::string_view bytes) {
  std::string out = "\"";
  for (unsigned char c : bytes) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", c);
    out += c < 0x20 || c >= 0x7F ? std::string(hex) : std::string(1, char(c));
  }
  return out + "\"";
}

std::string ids_of(const std::vector<int64_t>& ids) {
  std::string out;
  for (int64_t id : ids) {
    out += ' ';
    out += std::to_string(id);
  }
  return out;
}

int main() {
  const fs::path root = fs::path(default_dataset_path()).parent_path().parent_path().parent_path();
  const fs::path dir = root / "tests/data/fixtures";

  // 1. bytes_to_unicode: each byte as a printable character.
  std::printf("bytes_to_unicode:");
  for (int b : {int('A'), int('!'), 0xE9, int(' '), int('\n'), 0x00, 0xAD})
    std::printf(" 0x%02x->U+%04X %s", b, unsigned(gpt2_byte_char(uint8_t(b))), utf8(gpt2_byte_char(uint8_t(b))).c_str());
  std::printf("\n");

  // 2. vocab.bpe: the merges in order, one a line; encoder.json: each token's id.
  std::istringstream merges(util::read_text_file(dir / "bpe_vocab.bpe", "the fixture"));
  std::string line;
  std::printf("bpe_vocab.bpe starts:");
  for (int i = 0; i < 6 && std::getline(merges, line); ++i) std::printf(" [%s]", line.c_str());
  const json::Value encoder = json::parse(util::read_text_file(dir / "bpe_encoder.json", "the fixture"));
  std::printf("\nbpe_encoder.json:");
  for (const char* key : {"!", "A", "Ġ", "Ġt", "he", "Ġthe", "<|endoftext|>"})
    std::printf(" %s=%lld", key, (long long)encoder.at(key).as_int());
  std::printf("\n");

  // 3. Ranks are ids. The two files give the 256 bytes another order than the rank file
  //    (printable bytes first), and the merges the same ranks 256, 257, ...
  const BpeTokenizer gpt2 = BpeTokenizer::from_gpt2_files((dir / "bpe_encoder.json").string(),
                                                          (dir / "bpe_vocab.bpe").string());
  const BpeTokenizer ranks = BpeTokenizer::load((dir / "bpe_ranks.tiktoken").string());
  for (int64_t id : {0, 33, 220, 256, 260})
    std::printf("id %3lld: GPT-2 files %-8s rank file %s\n", (long long)id, shown(gpt2.token_bytes(id)).c_str(),
                shown(ranks.token_bytes(id)).c_str());
  std::string cut;
  for (int64_t id : gpt2.encode(" hello world")) cut.append(cut.empty() ? "" : "|").append(gpt2.token_bytes(id));
  std::printf("\" hello world\" is %s: GPT-2 files%s, rank file%s\n", cut.c_str(),
              ids_of(gpt2.encode(" hello world")).c_str(), ids_of(ranks.encode(" hello world")).c_str());
  return 0;
}
