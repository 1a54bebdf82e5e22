// Chapter 23: a BPE trained on the first 100,000 bytes of Shakespeare, as Karpathy's minbpe
// trains its RegexTokenizer with GPT-2's pattern: its first and last merges, the merges
// compared with minbpe's own, how much shorter the text gets, and the round trip.
#include <cstdio>
#include <filesystem>
#include <string>

#include "data/bpe.h"
#include "data/text_dataset.h"
#include "util/files.h"
#include "util/json.h"

using namespace attic;

// Bytes as they print here: a newline as \n, a byte beyond ASCII as \xNN.
std::string shown(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", c);
    out += c == '\n' ? std::string("\\n") : c >= 0x80 ? std::string(hex) : std::string(1, char(c));
  }
  return out;
}

// The text cut into its tokens, with | between them.
std::string cut(const BpeTokenizer& tok, const std::string& text) {
  std::string out;
  for (int64_t id : tok.encode(text)) out.append(out.empty() ? "" : "|").append(shown(tok.token_bytes(id)));
  return out;
}

// Ids first..last, six to a line.
void print_tokens(const BpeTokenizer& tok, const char* label, int64_t first, int64_t last) {
  std::printf("%s", label);
  for (int64_t id = first; id <= last; ++id)
    std::printf("%s %lld \"%s\"", (id - first) % 6 == 0 ? "\n " : "", (long long)id,
                shown(tok.token_bytes(id)).c_str());
  std::printf("\n");
}

int main() {
  const std::filesystem::path input = default_dataset_path();
  const std::string corpus = util::read_text_file(input, "the corpus");
  const std::string train = corpus.substr(0, 100000);

  // 513 ids: the 256 bytes, 256 merges and <|endoftext|>.
  const BpeTokenizer tok = BpeTokenizer::train(train, 513);
  std::printf("vocab size %lld; <|endoftext|> is id %lld\n", (long long)tok.vocab_size(),
              (long long)tok.eot_id());
  print_tokens(tok, "the first merges:", 256, 267);
  print_tokens(tok, "the last merges:", 500, 511);

  // minbpe's RegexTokenizer.train(text[:100000], 512) on the same bytes, as
  // bench/peer/make_bpe_fixture.py recorded it: merge i is the pair (a, b) that became 256 + i.
  const std::filesystem::path root = input.parent_path().parent_path().parent_path();
  const json::Value expected =
      json::parse(util::read_text_file(root / "tests/data/fixtures/bpe_expected.json", "the fixture"));
  const json::Value::Array& merges = expected.at("minbpe_merges").as_array();
  size_t same = 0;
  for (size_t i = 0; i < merges.size(); ++i) {
    const std::string a(tok.token_bytes(merges[i].as_array()[0].as_int()));
    const std::string b(tok.token_bytes(merges[i].as_array()[1].as_int()));
    same += tok.token_bytes(int64_t(256 + i)) == a + b;
  }
  std::printf("merges equal to minbpe's: %zu of %zu\n", same, merges.size());

  // Bytes per token on the text it was trained on, and on text from far later in the file.
  const std::string later = corpus.substr(1000000, 100000);
  for (auto [name, text] : {std::pair{"bytes 0 to 100,000:", train}, std::pair{"bytes 1,000,000 to 1,100,000:", later}}) {
    const size_t n = tok.encode(text).size();
    std::printf("%-30s %zu tokens, %.3f bytes per token\n", name, n, double(text.size()) / double(n));
  }

  const std::string line = "First Citizen:\nWe are accounted poor citizens, the patricians good.";
  std::printf("%s\n", cut(tok, line).c_str());
  std::printf("decoded back: %s\n", tok.decode(tok.encode(line)) == line ? "the same text" : "DIFFERENT");
  std::printf("%s\n", cut(tok, "Zoë's tokenizer").c_str());
  return 0;
}
