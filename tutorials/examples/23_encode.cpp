// Chapter 23: encoding by rank, <|endoftext|>, and attic's ids against tiktoken's, with the
// tokenizers of tests/data/fixtures/ (23_gpt2_files).
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "data/bpe.h"
#include "data/text_dataset.h"
#include "util/files.h"
#include "util/json.h"

using namespace attic;
namespace fs = std::filesystem;

std::string ids_of(const std::vector<int64_t>& ids) {
  std::string out;
  for (int64_t id : ids) {
    out += ' ';
    out += std::to_string(id);
  }
  return out;
}

// A part as vocab.bpe writes it, in bytes_to_unicode's characters (a space is Ġ).
std::string chars_of(const std::string& bytes) {
  std::string out;
  for (unsigned char b : bytes) {
    const char32_t c = gpt2_byte_char(b);
    out += c < 0x80 ? std::string(1, char(c)) : std::string{char(0xC0 | (c >> 6)), char(0x80 | (c & 0x3F))};
  }
  return out;
}

// tiktoken's _byte_pair_merge (src/lib.rs), the plain way: start from the piece's bytes and,
// while two neighbouring parts together are a token, merge the two whose token has the
// lowest rank (the leftmost of equal ones). Prints the parts after each merge.
std::vector<int64_t> merge_by_rank(const std::map<std::string, int64_t>& rank, const std::string& piece) {
  std::vector<std::string> parts;
  for (char c : piece) parts.push_back(std::string(1, c));
  for (;;) {
    size_t best = 0;
    int64_t best_rank = -1;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      const auto it = rank.find(parts[i] + parts[i + 1]);
      if (it != rank.end() && (best_rank < 0 || it->second < best_rank)) {
        best = i;
        best_rank = it->second;
      }
    }
    if (best_rank < 0) break;
    parts[best] += parts[best + 1];
    parts.erase(parts.begin() + long(best) + 1);
    std::string line;
    for (const std::string& p : parts) line.append(line.empty() ? "" : "|").append(chars_of(p));
    std::printf("  rank %3lld: %s\n", (long long)best_rank, line.c_str());
  }
  std::vector<int64_t> ids;
  for (const std::string& p : parts) ids.push_back(rank.at(p));
  return ids;
}

int main() {
  const fs::path root = fs::path(default_dataset_path()).parent_path().parent_path().parent_path();
  const fs::path dir = root / "tests/data/fixtures";
  const BpeTokenizer gpt2 = BpeTokenizer::from_gpt2_files((dir / "bpe_encoder.json").string(),
                                                          (dir / "bpe_vocab.bpe").string());
  const BpeTokenizer ranks = BpeTokenizer::load((dir / "bpe_ranks.tiktoken").string());

  // 1. One piece, the lowest rank first. A token's rank is its id.
  std::map<std::string, int64_t> rank;
  for (int64_t id = 0; id < gpt2.eot_id(); ++id) rank[std::string(gpt2.token_bytes(id))] = id;
  std::printf("\" citizens\", lowest rank first:\n");
  const std::vector<int64_t> ids = merge_by_rank(rank, " citizens");
  std::printf("ids%s; BpeTokenizer::encode:%s\n", ids_of(ids).c_str(), ids_of(gpt2.encode(" citizens")).c_str());

  // 2. <|endoftext|> is one id in encode, ordinary text in encode_ordinary.
  std::printf("encode(\"end.<|endoftext|>The\"):%s\n", ids_of(gpt2.encode("end.<|endoftext|>The")).c_str());
  std::printf("encode_ordinary of the same:%s\n", ids_of(gpt2.encode_ordinary("end.<|endoftext|>The")).c_str());

  // 3. tiktoken's ids for the torture text (bench/peer/make_bpe_fixture.py wrote them).
  const std::string torture = util::read_text_file(dir / "bpe_torture.bin", "the fixture");
  const json::Value expected = json::parse(util::read_text_file(dir / "bpe_expected.json", "the fixture"));
  auto same = [&](const std::vector<int64_t>& mine, const char* key) {
    const json::Value::Array& want = expected.at(key).as_array();
    bool equal = mine.size() == want.size();
    for (size_t i = 0; equal && i < want.size(); ++i) equal = mine[i] == want[i].as_int();
    std::printf("  %-28s %zu ids, equal to tiktoken's: %s\n", key, mine.size(), equal ? "yes" : "NO");
  };
  std::printf("the torture text, %zu bytes:\n", torture.size());
  same(ranks.encode(torture), "torture_special");
  same(ranks.encode_ordinary(torture), "torture_ordinary");
  same(gpt2.encode_ordinary(torture), "gpt2_files_torture_ordinary");
  return 0;
}
