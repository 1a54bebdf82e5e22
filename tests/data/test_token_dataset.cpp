// TokenDataset: nanoGPT's train.bin / val.bin folders, as `attic data bpe` writes them and as
// data/shakespeare/prepare.py does (uint16 ids, no meta.json), with every damaged folder refused.
#include <filesystem>
#include <fstream>
#include <random>

#include "catch.h"
#include "data/dataset.h"
#include "data/text_dataset.h"
#include "data/token_dataset.h"

using namespace attic;
using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

struct Folder {
  fs::path dir = fs::temp_directory_path() / ("attic-tokens-" + std::to_string(std::random_device{}()));
  Folder() { fs::create_directories(dir); }
  ~Folder() { fs::remove_all(dir); }
  std::string str() const { return dir.string(); }
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
  }
};

// ids as little-endian uint16, as NumPy's tofile writes np.uint16.
std::string u16(const std::vector<int>& ids) {
  std::string s;
  for (int id : ids) {
    s.push_back(char(id & 0xFF));
    s.push_back(char(id >> 8));
  }
  return s;
}

const std::string kText =
    "First Citizen:\nBefore we proceed any further, hear me speak.\n\nAll:\nSpeak, speak.\n\n"
    "First Citizen:\nYou are all resolved rather to die than to famish?\n";

}  // namespace

TEST_CASE("write_token_folder splits the characters as prepare.py does and reads back", "[data][tokens]") {
  Folder f;
  const BpeTokenizer tok = BpeTokenizer::train(kText, 280);
  const TokenFolderStats st = write_token_folder(f.str(), tok, kText);
  CHECK(st.train_chars == train_split_size(int64_t(kText.size())));
  CHECK(st.train_chars + st.val_chars == int64_t(kText.size()));
  const TokenDataset d = TokenDataset::open(f.str());
  CHECK(d.has_tokenizer());
  CHECK(d.vocab_size() == 280);
  CHECK(d.tokenizer().same_as(tok));
  CHECK(d.size(Split::Train) == st.train_tokens);
  CHECK(d.size(Split::Val) == st.val_tokens);
  // The ids decode back to the text's two parts.
  CHECK(tok.decode(d.slice(Split::Train, 0, d.size(Split::Train)).to_vector<int64_t>()) ==
        kText.substr(0, size_t(st.train_chars)));
  CHECK(tok.decode(d.slice(Split::Val, 0, d.size(Split::Val)).to_vector<int64_t>()) ==
        kText.substr(size_t(st.train_chars)));
  CHECK(d.chars_per_token(Split::Val) == Approx(double(st.val_chars) / double(st.val_tokens)));
  // open_dataset takes the folder by its path.
  const std::unique_ptr<Dataset> any = open_dataset(f.str());
  CHECK(any->describe() == std::to_string(st.train_tokens + st.val_tokens) + " tokens");
}

TEST_CASE("a batch of a token folder is nanoGPT's get_batch: random windows and the next token", "[data][tokens]") {
  Folder f;
  std::vector<int> train(100), val(30);
  for (int i = 0; i < 100; ++i) train[size_t(i)] = 1000 + i;  // ids past one byte, as GPT-2's are
  for (int i = 0; i < 30; ++i) val[size_t(i)] = 60000 + i;
  f.write("train.bin", u16(train));
  f.write("val.bin", u16(val));
  const TokenDataset d = TokenDataset::open(f.str());
  CHECK_FALSE(d.has_tokenizer());  // nanoGPT's folders hold ids alone
  CHECK(d.vocab_size() == 60030);  // the largest id + 1
  CHECK(d.chars_per_token(Split::Val) == 0);
  CHECK_THROWS_WITH(d.tokenizer(), ContainsSubstring("has ids alone, no tokenizer.bpe"));
  Generator gen(7);
  const Batch b = d.get_batch(Split::Train, 4, 8, gen);
  REQUIRE(b.x.sizes() == std::vector<int64_t>{4, 8});
  const std::vector<int64_t> x = b.x.to_vector<int64_t>(), y = b.y.to_vector<int64_t>();
  for (size_t r = 0; r < 4; ++r)
    for (size_t t = 0; t < 8; ++t) {
      CHECK(y[r * 8 + t] == x[r * 8 + t] + 1);
      CHECK(x[r * 8 + t] >= 1000);
      CHECK(x[r * 8 + t] + 1 < 1100);
    }
  // The offsets are draws of randint(0, len - T), in order, as TextDataset's are: they depend
  // on the split's length and the generator alone.
  Generator g1(3), g2(3);
  const std::vector<int64_t> vx = d.get_batch(Split::Val, 2, 5, g1).x.to_vector<int64_t>();
  CHECK(vx[0] - 60000 == g2.randint(0, 30 - 5));
  CHECK(vx[5] - 60000 == g2.randint(0, 30 - 5));
}

TEST_CASE("a damaged token folder is refused, naming the file", "[data][tokens][errors]") {
  Folder f;
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("has no train.bin"));
  f.write("train.bin", u16({1, 2, 3}));
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("has no val.bin"));
  f.write("val.bin", std::string("\x01\x00\x02", 3));
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("3 bytes is not a whole number of 16-bit ids"));
  f.write("val.bin", "");
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("val.bin is empty"));
  f.write("val.bin", u16({4, 5}));
  f.write("meta.json", R"({"dtype": "int8"})");
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("dtype must be \"uint16\" or \"uint32\""));
  f.write("meta.json", R"({"vocab_size": 5})");
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("holds the id 5, beyond its vocabulary of 5"));
  f.write("meta.json", R"({"train_tokens": 4})");
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("says 4 train tokens, but"));
  f.write("meta.json", "{not json");
  CHECK_THROWS(TokenDataset::open(f.str()));
  f.write("meta.json", R"({"dtype": "uint32"})");
  CHECK_THROWS_WITH(TokenDataset::open(f.str()), ContainsSubstring("is not a whole number of 32-bit ids"));
  f.write("meta.json", "{}");
  f.write("tokenizer.bpe", "attic-bpe 1 pattern=gpt2 special=<|endoftext|>:3\nAA== 0\n");
  CHECK_THROWS(TokenDataset::open(f.str()));
  fs::remove(f.dir / "tokenizer.bpe");
  CHECK(TokenDataset::open(f.str()).size(Split::Train) == 3);
  // A folder of neither kind.
  Folder empty;
  CHECK_THROWS_WITH(open_dataset(empty.str()), ContainsSubstring("neither train.bin and val.bin"));
}
