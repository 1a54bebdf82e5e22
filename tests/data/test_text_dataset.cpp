// TextDataset: nanoGPT's shakespeare_char split and get_batch, and where the corpus is found.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "data/data.h"
#include "helpers.h"

using namespace attic;
using attic::testing::error_message;
namespace fs = std::filesystem;

namespace {

// The ids of an int64 tensor, row-major.
std::vector<int64_t> ids(const Tensor& t) { return t.to_vector<int64_t>(); }

// The Shakespeare dataset, loaded once per test program.
const TextDataset& shakespeare() {
  static const TextDataset ds = TextDataset::from_file(default_dataset_path());
  return ds;
}

// A fresh folder under the system temp dir, removed at the end of the test.
struct ScratchDir {
  fs::path dir = fs::temp_directory_path() /
                 ("attic_test_text_dataset_" + std::to_string(std::random_device{}()));
  ScratchDir() { fs::create_directories(dir); }
  ~ScratchDir() { fs::remove_all(dir); }
  // Writes bytes to dir/name and returns its path.
  std::string write(const std::string& name, const std::string& bytes) const {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return (dir / name).string();
  }
};

// Sets an environment variable for one scope and restores the old value after.
struct ScopedEnv {
  std::string name;
  bool had = false;
  std::string old;
  ScopedEnv(const std::string& n, const std::string& value) : name(n) {
    if (const char* v = std::getenv(n.c_str())) {
      had = true;
      old = v;
    }
    ::setenv(n.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (had)
      ::setenv(name.c_str(), old.c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

// 40 distinct characters in increasing byte order, '0' (0x30) to 'W' (0x57): a character's
// id is its position in the text, so a window's first token is its offset.
const std::string kDistinct = "0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVW";

}  // namespace

TEST_CASE("text dataset: Shakespeare splits into nanoGPT's train and val", "[data]") {
  const TextDataset& ds = shakespeare();
  CHECK(ds.vocab_size() == 65);
  CHECK(ds.tokens().dtype() == kInt64);
  CHECK(str(ds.tokens().shape()) == "[1115394]");
  CHECK(ds.size(Split::Train) == 1003854);
  CHECK(ds.size(Split::Val) == 111540);
  // "First Citizen:" opens train; val opens mid-sentence at "?\n\nGREMIO:", the end of
  // "But who comes here?" whose first words close the train split.
  const std::vector<int64_t> train = ids(ds.data(Split::Train));
  const std::vector<int64_t> val = ids(ds.data(Split::Val));
  CHECK(ds.tokenizer().decode({train.begin(), train.begin() + 14}) == "First Citizen:");
  CHECK(ds.tokenizer().decode({train.end() - 18, train.end()}) == "But who comes here");
  CHECK(std::vector<int64_t>(val.begin(), val.begin() + 10) ==
        std::vector<int64_t>{12, 0, 0, 19, 30, 17, 25, 21, 27, 10});
  CHECK(ds.tokenizer().decode({val.end() - 8, val.end()}) == "waking.\n");
}

TEST_CASE("text dataset: train and val are views that tile the tokens", "[data]") {
  const TextDataset& ds = shakespeare();
  const Tensor& train = ds.data(Split::Train);
  const Tensor& val = ds.data(Split::Val);
  CHECK(train.shares_storage(ds.tokens()));
  CHECK(val.shares_storage(ds.tokens()));
  CHECK(train.storage_offset() == 0);
  CHECK(val.storage_offset() == 1003854);
  CHECK(train.size(0) + val.size(0) == ds.tokens().size(0));
}

TEST_CASE("text dataset: the split size is Python's int of n times the fraction", "[data]") {
  // int(n * 0.9) in Python for each n.
  CHECK(train_split_size(0) == 0);
  CHECK(train_split_size(1) == 0);
  CHECK(train_split_size(2) == 1);
  CHECK(train_split_size(10) == 9);
  CHECK(train_split_size(11) == 9);
  CHECK(train_split_size(19) == 17);
  CHECK(train_split_size(1115394) == 1003854);
  CHECK(train_split_size(999999999) == 899999999);
  CHECK(train_split_size(1000000000) == 900000000);
  // The product is rounded as a double, not computed exactly: in Python 100 * 0.29 is
  // 28.999999999999996 and 90 * 0.7 is 62.99999999999999, so int() gives 28 and 62.
  CHECK(train_split_size(100, 0.29) == 28);
  CHECK(train_split_size(90, 0.7) == 62);
  CHECK(train_split_size(80, 0.7) == 56);
  CHECK(train_split_size(10, 0.5) == 5);
}

TEST_CASE("text dataset: the train fraction must lie strictly between 0 and 1", "[data]") {
  CHECK(error_message([] { train_split_size(10, 1.0); }) ==
        "train_split_size: train_fraction must be in (0, 1), got 1");
  CHECK_FALSE(error_message([] { train_split_size(10, 0.0); }).empty());
  CHECK_FALSE(error_message([] { train_split_size(10, std::nan("")); }).empty());
  CHECK(error_message([] { train_split_size(-1); }) ==
        "train_split_size: the text length must be >= 0, got -1");
  CHECK(error_message([] { TextDataset::from_text("abc", 1.5); }) ==
        "TextDataset: train_fraction must be in (0, 1), got 1.5");
}

TEST_CASE("text dataset: small corpora split the same way", "[data]") {
  // 10 characters: int(10 * 0.9) = 9 train, 1 val.
  TextDataset ten = TextDataset::from_text("abcdefghij");
  CHECK(ten.vocab_size() == 10);
  CHECK(ids(ten.data(Split::Train)) == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(ids(ten.data(Split::Val)) == std::vector<int64_t>{9});
  // 11 characters: int(11 * 0.9) = int(9.9) = 9 train, 2 val.
  CHECK(TextDataset::from_text("abcdefghijk").size(Split::Val) == 2);
  // With train_fraction 0.5: int(4 * 0.5) = 2.
  TextDataset half = TextDataset::from_text("aabb", 0.5);
  CHECK(ids(half.data(Split::Train)) == std::vector<int64_t>{0, 0});
  CHECK(ids(half.data(Split::Val)) == std::vector<int64_t>{1, 1});
  // One character: int(0.9) = 0, so all of it is val and train is empty.
  TextDataset one = TextDataset::from_text("x");
  CHECK(one.size(Split::Train) == 0);
  CHECK(one.size(Split::Val) == 1);
  CHECK(error_message([] { TextDataset::from_text(""); }) ==
        "CharTokenizer: the text is empty; a vocabulary needs at least one character");
}

TEST_CASE("text dataset: a batch is B rows of T int64 tokens", "[data]") {
  const TextDataset& ds = shakespeare();
  Generator gen(1337);
  for (Split split : {Split::Train, Split::Val}) {
    Batch batch = ds.get_batch(split, 4, 8, gen);
    CHECK(str(batch.x.shape()) == "[4, 8]");
    CHECK(str(batch.y.shape()) == "[4, 8]");
    CHECK(batch.x.dtype() == kInt64);
    CHECK(batch.y.dtype() == kInt64);
    CHECK(batch.x.is_contiguous());
    CHECK_FALSE(batch.x.requires_grad());
    // Its own storage: writing into a batch cannot change the corpus.
    CHECK_FALSE(batch.x.shares_storage(ds.tokens()));
  }
  CHECK(str(ds.get_batch(Split::Train, 1, 256, gen).x.shape()) == "[1, 256]");
}

TEST_CASE("text dataset: y is x shifted by one token in the raw token tensor", "[data]") {
  const TextDataset& ds = shakespeare();
  const std::vector<int64_t> tokens = ids(ds.tokens());
  const int64_t B = 6, T = 16;
  for (Split split : {Split::Train, Split::Val}) {
    const int64_t start = split == Split::Train ? 0 : ds.size(Split::Train);
    const int64_t len = ds.size(split);
    Generator gen(42), replay(42);
    Batch batch = ds.get_batch(split, B, T, gen);
    const std::vector<int64_t> x = ids(batch.x), y = ids(batch.y);
    for (int64_t b = 0; b < B; ++b) {
      // The same draws, in the same order, give each row's offset into the split.
      const int64_t i = replay.randint(0, len - T);
      const auto row = x.begin() + b * T, next = y.begin() + b * T;
      CHECK(std::vector<int64_t>(row, row + T) ==
            std::vector<int64_t>(tokens.begin() + start + i, tokens.begin() + start + i + T));
      CHECK(std::vector<int64_t>(next, next + T) ==
            std::vector<int64_t>(tokens.begin() + start + i + 1,
                                 tokens.begin() + start + i + 1 + T));
      // So y[b, t] = x[b, t + 1] for t < T - 1: each position's target is the next input.
      CHECK(std::vector<int64_t>(row + 1, row + T) == std::vector<int64_t>(next, next + T - 1));
    }
    // Both generators have made exactly B draws.
    CHECK(gen.state() == replay.state());
  }
}

TEST_CASE("text dataset: a decoded row is a stretch of the text", "[data]") {
  const std::string text = "It is a far, far better thing that I do, than I have ever done.";
  TextDataset ds = TextDataset::from_text(text);
  Generator gen(7);
  Batch batch = ds.get_batch(Split::Train, 3, 10, gen);
  for (int64_t b = 0; b < 3; ++b) {
    const std::string x = ds.tokenizer().decode(ids(batch.x[b]));
    const std::string y = ds.tokenizer().decode(ids(batch.y[b]));
    const size_t at = text.find(x);
    REQUIRE(at != std::string::npos);
    CHECK(text.substr(at + 1, 10) == y);
  }
}

TEST_CASE("text dataset: the same seed gives the same batch", "[data]") {
  const TextDataset& ds = shakespeare();
  Generator a(5), b(5), c(6);
  Batch ba = ds.get_batch(Split::Train, 8, 32, a);
  Batch bb = ds.get_batch(Split::Train, 8, 32, b);
  Batch bc = ds.get_batch(Split::Train, 8, 32, c);
  CHECK(ids(ba.x) == ids(bb.x));
  CHECK(ids(ba.y) == ids(bb.y));
  CHECK(ids(ba.x) != ids(bc.x));
  // The generator moved on: the next batch from a is a new one.
  CHECK(ids(ds.get_batch(Split::Train, 8, 32, a).x) != ids(ba.x));
}

TEST_CASE("text dataset: offsets cover exactly 0 to len minus T", "[data]") {
  // 40 distinct characters with train_fraction 0.5: train is ids 0..19, val ids 20..39.
  // With T = 5 the train offsets are 0..14 (len - T = 15) and a row's first token is its
  // offset; y's last token reaches id 19, the last of train, and never a val token.
  TextDataset ds = TextDataset::from_text(kDistinct, 0.5);
  REQUIRE(ds.size(Split::Train) == 20);
  const int64_t T = 5;
  Generator gen(0);
  std::set<int64_t> train_starts, val_starts;
  int64_t train_max = 0, val_min = 40;
  for (int round = 0; round < 50; ++round) {
    Batch train = ds.get_batch(Split::Train, 16, T, gen);
    Batch val = ds.get_batch(Split::Val, 16, T, gen);
    for (int64_t b = 0; b < 16; ++b) {
      train_starts.insert(train.x[b][0].item<int64_t>());
      val_starts.insert(val.x[b][0].item<int64_t>());
    }
    for (int64_t v : ids(train.y)) train_max = std::max(train_max, v);
    for (int64_t v : ids(val.x)) val_min = std::min(val_min, v);
  }
  std::set<int64_t> want_train, want_val;
  for (int64_t i = 0; i < 15; ++i) {
    want_train.insert(i);
    want_val.insert(20 + i);
  }
  CHECK(train_starts == want_train);
  CHECK(val_starts == want_val);
  CHECK(train_max == 19);
  CHECK(val_min == 20);
}

TEST_CASE("text dataset: a split must be longer than T", "[data]") {
  // "abcdefghij": train has 9 tokens and val 1.
  TextDataset ds = TextDataset::from_text("abcdefghij");
  Generator gen(0);
  CHECK(error_message([&] { ds.get_batch(Split::Val, 2, 1, gen); }) ==
        "TextDataset::get_batch: the val split has 1 tokens, too few for T = 1 (it needs more "
        "than T: x and y are T tokens and y starts one later)");
  CHECK(error_message([&] { ds.get_batch(Split::Train, 2, 9, gen); }) ==
        "TextDataset::get_batch: the train split has 9 tokens, too few for T = 9 (it needs "
        "more than T: x and y are T tokens and y starts one later)");
  // T = 8 leaves one offset, 0: every row is the whole split but its last (or first) token.
  Batch batch = ds.get_batch(Split::Train, 3, 8, gen);
  CHECK(ids(batch.x[2]) == std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(ids(batch.y[2]) == std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(error_message([&] { ds.get_batch(Split::Train, 0, 4, gen); }) ==
        "TextDataset::get_batch: B and T must be positive, got B = 0, T = 4");
  CHECK_FALSE(error_message([&] { ds.get_batch(Split::Train, 2, -1, gen); }).empty());
}

TEST_CASE("text dataset: a file is read as raw bytes", "[data]") {
  ScratchDir scratch;
  // CR LF stays two characters; the file is not read in text mode.
  const std::string bytes = "one\r\ntwo\r\nthree\r\n";
  TextDataset ds = TextDataset::from_file(scratch.write("tiny.txt", bytes));
  CHECK(ds.tokens().numel() == int64_t(bytes.size()));
  CHECK(ds.tokenizer().vocabulary() == "\n\rehnortw");
  CHECK(ds.tokenizer().decode(ids(ds.tokens())) == bytes);
  CHECK(ds.size(Split::Train) == train_split_size(int64_t(bytes.size())));
}

TEST_CASE("text dataset: a missing or empty file is an error naming the path", "[data]") {
  ScratchDir scratch;
  const std::string missing = (scratch.dir / "nope.txt").string();
  CHECK(error_message([&] { TextDataset::from_file(missing); }) ==
        "TextDataset: no such file: " + missing);
  CHECK(error_message([&] { TextDataset::from_file(scratch.dir.string()); }) ==
        "TextDataset: " + scratch.dir.string() + " is not a regular file");
  const std::string empty = scratch.write("empty.txt", "");
  CHECK(error_message([&] { TextDataset::from_file(empty); }) ==
        "TextDataset: " + empty + " is empty; it needs at least one character");
}

TEST_CASE("text dataset: the default path finds the shipped corpus", "[data]") {
  const std::string path = default_dataset_path();
  CHECK(fs::path(path).filename() == "input.txt");
  CHECK(fs::path(path).parent_path().filename() == "shakespeare_char");
  CHECK(fs::file_size(path) == 1115394);
}

TEST_CASE("text dataset: ATTIC_DATA_DIR comes first in the search", "[data]") {
  ScratchDir scratch;
  const std::string mine = scratch.write("shakespeare_char/input.txt", "my own corpus\n");
  ScopedEnv env("ATTIC_DATA_DIR", scratch.dir.string());
  const std::vector<std::string> places = default_dataset_candidates();
  REQUIRE(places.size() == 3);
  CHECK(places[0] == mine);
  CHECK(places[1] == std::string(ATTIC_SOURCE_DIR) + "/data/shakespeare_char/input.txt");
  CHECK(places[2] == "./data/shakespeare_char/input.txt");
  CHECK(default_dataset_path() == mine);
  CHECK(TextDataset::from_file(default_dataset_path()).tokens().numel() == 14);
}

TEST_CASE("text dataset: without ATTIC_DATA_DIR the source tree is searched", "[data]") {
  ScratchDir scratch;
  ScopedEnv env("ATTIC_DATA_DIR", "");
  const std::vector<std::string> places = default_dataset_candidates();
  REQUIRE(places.size() == 2);
  CHECK(places[0] == std::string(ATTIC_SOURCE_DIR) + "/data/shakespeare_char/input.txt");
  // An ATTIC_DATA_DIR without the file is skipped, and the next place is used.
  ScopedEnv empty_dir("ATTIC_DATA_DIR", scratch.dir.string());
  CHECK(default_dataset_path() == default_dataset_candidates()[1]);
}
