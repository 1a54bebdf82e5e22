#include "data/text_dataset.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "data/digit_mul.h"
#include "ops/ops.h"
#include "util/quote_value.h"

namespace attic {

namespace fs = std::filesystem;

// n, f in (0, 1) -> int(n * f). n converts to double exactly (n < 2^53) and the product
// is one IEEE multiply rounded to nearest, the same as Python's n * f; the cast truncates
// toward zero like int(). So 100 * 0.29 = 28.999999999999996 gives 28, as in Python.
int64_t train_split_size(int64_t n, double train_fraction) {
  ATTIC_CHECK(n >= 0, "train_split_size: the text length must be >= 0, got ", n);
  ATTIC_CHECK(train_fraction > 0 && train_fraction < 1,
              "train_split_size: train_fraction must be in (0, 1), got ", train_fraction);
  return static_cast<int64_t>(static_cast<double>(n) * train_fraction);
}

// text [N chars] -> tokens [N], train = tokens[0 : n_train], val = tokens[n_train : N].
TextDataset::TextDataset(const std::string& text, double train_fraction)
    : tokenizer_(CharTokenizer::from_text(text)) {
  const int64_t n = int64_t(text.size());
  const int64_t n_train = train_split_size(n, train_fraction);
  tokens_ = from_vector(tokenizer_.encode(text), {n});
  train_ = tokens_.narrow(0, 0, n_train);
  val_ = tokens_.narrow(0, n_train, n - n_train);
}

// text [N chars] -> the dataset; the fraction is checked before the text is tokenized.
TextDataset TextDataset::from_text(const std::string& text, double train_fraction) {
  ATTIC_CHECK(train_fraction > 0 && train_fraction < 1,
              "TextDataset: train_fraction must be in (0, 1), got ", train_fraction);
  return TextDataset(text, train_fraction);
}

// The file is read as raw bytes (binary mode): what is on disk is what gets tokenized.
TextDataset TextDataset::from_name(const std::string& name, double train_fraction) {
  if (auto g = parse_generated_dataset(name))
    return from_text(digit_mul_text(g->digits, g->lines, g->seed), train_fraction);
  // A name that looks like a generated task and is no file: say which tasks there are.
  std::error_code ec;
  if ((name == "digit_mul" || name.rfind("digit_mul:", 0) == 0) && !fs::exists(name, ec))
    fail("dataset ", util::quote_value(name), ": the generated datasets are digit_mul:4 and "
         "digit_mul:5; for 1 to 9 digits write one with 'attic data digit_mul --digits=N "
         "--out=FILE' and give that file");
  return from_file(name, train_fraction);
}

TextDataset TextDataset::from_file(const std::string& path, double train_fraction) {
  std::error_code ec;
  ATTIC_CHECK(fs::exists(path, ec), "TextDataset: no such file: ", path);
  ATTIC_CHECK(fs::is_regular_file(path, ec), "TextDataset: ", path, " is not a regular file");
  std::ifstream in(path, std::ios::binary);
  ATTIC_CHECK(in.good(), "TextDataset: cannot open ", path, " for reading");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  ATTIC_CHECK(!in.bad(), "TextDataset: reading ", path, " failed");
  const std::string text = buffer.str();
  ATTIC_CHECK(!text.empty(), "TextDataset: ", path, " is empty; it needs at least one "
              "character");
  return from_text(text, train_fraction);
}

// data [len] of the split -> x, y [B, T]; i_b = gen.randint(0, len - T), drawn in order
// b = 0..B-1, x[b] = data[i_b : i_b + T], y[b] = data[i_b + 1 : i_b + T + 1].
// The largest offset, len - T - 1, puts y's last token at len - 1, the split's last.
Batch TextDataset::get_batch(Split split, int64_t B, int64_t T, Generator& gen) const {
  ATTIC_CHECK(B > 0 && T > 0, "TextDataset::get_batch: B and T must be positive, got B = ", B,
              ", T = ", T);
  const Tensor& d = data(split);
  const int64_t len = d.numel();
  ATTIC_CHECK(len > T, "TextDataset::get_batch: the ", split_name(split), " split has ", len,
              " tokens, too few for T = ", T, " (it needs more than T: x and y are T tokens "
              "and y starts one later)");
  std::vector<Tensor> xs, ys;
  xs.reserve(size_t(B));
  ys.reserve(size_t(B));
  for (int64_t b = 0; b < B; ++b) {
    const int64_t i = gen.randint(0, len - T);
    xs.push_back(d.narrow(0, i, T));
    ys.push_back(d.narrow(0, i + 1, T));
  }
  return {stack(xs), stack(ys)};
}

Batch TextDataset::get_windows(Split split, const std::vector<int64_t>& starts, int64_t T) const {
  const Tensor& d = data(split);
  const int64_t len = d.numel();
  ATTIC_CHECK(!starts.empty() && T > 0, "TextDataset::get_windows: needs a start and T > 0, got ", starts.size(),
              " starts and T = ", T);
  std::vector<Tensor> xs, ys;
  xs.reserve(starts.size());
  ys.reserve(starts.size());
  for (const int64_t i : starts) {
    ATTIC_CHECK(i >= 0 && i < len - T, "TextDataset::get_windows: start ", i, " is outside [0, ", len - T,
                ") of the ", split_name(split), " split of ", len, " tokens for T = ", T);
    xs.push_back(d.narrow(0, i, T));
    ys.push_back(d.narrow(0, i + 1, T));
  }
  return {stack(xs), stack(ys)};
}

// The search path, most specific first: the user's folder, the source tree, the cwd.
std::vector<std::string> default_dataset_candidates() {
  const std::string rel = "shakespeare_char/input.txt";
  std::vector<std::string> places;
  if (const char* dir = std::getenv("ATTIC_DATA_DIR"); dir != nullptr && *dir != '\0')
    places.push_back((fs::path(dir) / rel).string());
#ifdef ATTIC_SOURCE_DIR
  places.push_back((fs::path(ATTIC_SOURCE_DIR) / "data" / rel).string());
#endif
  places.push_back((fs::path(".") / "data" / rel).string());
  return places;
}

// The first candidate that is a regular file.
std::string default_dataset_path() {
  const std::vector<std::string> places = default_dataset_candidates();
  std::string tried;
  for (const std::string& p : places) {
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
    tried += (tried.empty() ? "" : ", ") + p;
  }
  fail("default_dataset_path: found no shakespeare_char/input.txt; tried ", tried,
       ". Set ATTIC_DATA_DIR to the folder that holds shakespeare_char/, or pass a path");
}

}  // namespace attic
