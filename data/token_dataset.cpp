#include "data/token_dataset.h"

#include <algorithm>
#include <filesystem>
#include <limits>

#include "data/text_dataset.h"
#include "ops/ops.h"
#include "tensor/error.h"
#include "util/atomic_file.h"
#include "util/files.h"
#include "util/json.h"

namespace attic {

namespace fs = std::filesystem;

namespace {

// meta.json's count `key`, or 0 when absent; a present one must be a whole number >= 0.
int64_t count_of(const json::Value& meta, const std::string& key, const std::string& path) {
  const json::Value* v = meta.find(key);
  if (v == nullptr) return 0;
  ATTIC_CHECK(v->is_int() && v->as_int() >= 0, path, ": ", key, " must be a whole number >= 0, got ", json::dump(*v));
  return v->as_int();
}

}  // namespace

TokenDataset TokenDataset::open(const std::string& dir) {
  TokenDataset d;
  d.dir_ = dir;
  json::Value meta = json::Value::Object{};
  const std::string meta_path = dir + "/meta.json";
  std::error_code ec;
  if (fs::exists(meta_path, ec)) {
    meta = json::parse(util::read_text_file(meta_path, "the dataset's meta.json"));
    ATTIC_CHECK(meta.is_object(), meta_path, ": not a JSON object");
    if (const json::Value* t = meta.find("dtype")) {
      ATTIC_CHECK(t->is_string() && (t->as_string() == "uint16" || t->as_string() == "uint32"), meta_path,
                  ": dtype must be \"uint16\" or \"uint32\", got ", json::dump(*t));
      d.bytes_per_id_ = t->as_string() == "uint16" ? 2 : 4;
    }
    d.vocab_size_ = count_of(meta, "vocab_size", meta_path);
  }
  for (auto [split, ids] : {std::pair{"train", &d.train_}, std::pair{"val", &d.val_}}) {
    const std::string path = dir + "/" + split + ".bin";
    ATTIC_CHECK(fs::is_regular_file(path, ec), "dataset '", dir, "' has no ", split, ".bin (a folder of token ids "
                "needs train.bin and val.bin; attic data bpe writes them)");
    ids->file = std::make_shared<util::MappedFile>(path);
    ATTIC_CHECK(ids->file->size() % size_t(d.bytes_per_id_) == 0, path, ": ", ids->file->size(),
                " bytes is not a whole number of ", d.bytes_per_id_ * 8, "-bit ids");
    ids->n = int64_t(ids->file->size()) / d.bytes_per_id_;
    ATTIC_CHECK(ids->n > 0, path, " is empty");
    const int64_t want = count_of(meta, std::string(split) + "_tokens", meta_path);
    ATTIC_CHECK(want == 0 || want == ids->n, meta_path, " says ", want, " ", split, " tokens, but ", path,
                " holds ", ids->n);
    ids->chars = count_of(meta, std::string(split) + "_chars", meta_path);
  }
  const std::string tok_path = dir + "/tokenizer.bpe";
  if (fs::exists(tok_path, ec)) {
    d.tokenizer_ = std::make_shared<BpeTokenizer>(BpeTokenizer::load(tok_path));
    ATTIC_CHECK(d.vocab_size_ == 0 || d.vocab_size_ == d.tokenizer_->vocab_size(), meta_path, " says vocab_size ",
                d.vocab_size_, ", but ", tok_path, " has ", d.tokenizer_->vocab_size());
    d.vocab_size_ = d.tokenizer_->vocab_size();
  }
  const int64_t top = d.max_id();
  if (d.vocab_size_ > 0)
    ATTIC_CHECK(top < d.vocab_size_, "dataset '", dir, "' holds the id ", top, ", beyond its vocabulary of ",
                d.vocab_size_);
  else
    d.vocab_size_ = top + 1;
  return d;
}

const Tokenizer& TokenDataset::tokenizer() const {
  ATTIC_CHECK(tokenizer_ != nullptr, "dataset '", dir_, "' has ids alone, no tokenizer.bpe: it trains a model "
              "that brings its own (init_from = gpt2 ...), or `attic data bpe` writes the folder with one");
  return *tokenizer_;
}

double TokenDataset::chars_per_token(Split split) const {
  const Ids& ids = split == Split::Train ? train_ : val_;
  return ids.chars > 0 ? double(ids.chars) / double(ids.n) : 0.0;
}

int64_t TokenDataset::id_at(const Ids& ids, int64_t i) const {
  const unsigned char* p = ids.file->data() + size_t(i) * size_t(bytes_per_id_);
  // Little-endian, as NumPy's tofile writes np.uint16 on every machine nanoGPT runs on.
  int64_t v = 0;
  for (int b = bytes_per_id_ - 1; b >= 0; --b) v = v << 8 | p[b];
  return v;
}

int64_t TokenDataset::max_id() const {
  int64_t top = 0;
  for (const Ids* ids : {&train_, &val_})
    for (int64_t i = 0; i < ids->n; ++i) top = std::max(top, id_at(*ids, i));
  return top;
}

Tensor TokenDataset::slice(Split split, int64_t start, int64_t n) const {
  const Ids& ids = split == Split::Train ? train_ : val_;
  ATTIC_CHECK(start >= 0 && n >= 0 && start + n <= ids.n, "TokenDataset::slice: [", start, ", ", start + n,
              ") is outside the ", split_name(split), " split of ", ids.n, " tokens");
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[size_t(i)] = id_at(ids, start + i);
  return from_vector(out, {n});
}

// The same draws as TextDataset::get_batch, so a run's batches depend on the split's length
// and the generator alone.
Batch TokenDataset::get_batch(Split split, int64_t B, int64_t T, Generator& gen) const {
  ATTIC_CHECK(B > 0 && T > 0, "TokenDataset::get_batch: B and T must be positive, got B = ", B, ", T = ", T);
  const int64_t len = size(split);
  ATTIC_CHECK(len > T, "TokenDataset::get_batch: the ", split_name(split), " split of ", dir_, " has ", len,
              " tokens, too few for T = ", T, " (x and y are T tokens and y starts one later)");
  std::vector<int64_t> x(size_t(B * T)), y(size_t(B * T));
  const Ids& ids = split == Split::Train ? train_ : val_;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t i = gen.randint(0, len - T);
    for (int64_t t = 0; t < T; ++t) {
      x[size_t(b * T + t)] = id_at(ids, i + t);
      y[size_t(b * T + t)] = id_at(ids, i + t + 1);
    }
  }
  return {from_vector(x, {B, T}), from_vector(y, {B, T})};
}

Batch TokenDataset::get_windows(Split split, const std::vector<int64_t>& starts, int64_t T) const {
  const int64_t len = size(split), B = int64_t(starts.size());
  ATTIC_CHECK(B > 0 && T > 0, "TokenDataset::get_windows: needs a start and T > 0, got ", B, " starts and T = ", T);
  std::vector<int64_t> x(size_t(B * T)), y(size_t(B * T));
  const Ids& ids = split == Split::Train ? train_ : val_;
  for (int64_t b = 0; b < B; ++b) {
    const int64_t i = starts[size_t(b)];
    ATTIC_CHECK(i >= 0 && i < len - T, "TokenDataset::get_windows: start ", i, " is outside [0, ", len - T,
                ") of the ", split_name(split), " split of ", dir_, " (", len, " tokens) for T = ", T);
    for (int64_t t = 0; t < T; ++t) {
      x[size_t(b * T + t)] = id_at(ids, i + t);
      y[size_t(b * T + t)] = id_at(ids, i + t + 1);
    }
  }
  return {from_vector(x, {B, T}), from_vector(y, {B, T})};
}

std::string TokenDataset::describe() const {
  return std::to_string(train_.n + val_.n) + " tokens";
}

TokenFolderStats write_token_folder(const std::string& dir, const BpeTokenizer& tok, const std::string& text,
                                    double train_fraction) {
  const int64_t n_train = train_split_size(int64_t(text.size()), train_fraction);
  const int bytes = tok.vocab_size() <= 65536 ? 2 : 4;
  fs::create_directories(dir);
  TokenFolderStats st;
  st.train_chars = n_train;
  st.val_chars = int64_t(text.size()) - n_train;
  for (auto [name, part, count] : {std::tuple{"train", std::string_view(text).substr(0, size_t(n_train)), &st.train_tokens},
                                   std::tuple{"val", std::string_view(text).substr(size_t(n_train)), &st.val_tokens}}) {
    const std::vector<int64_t> ids = tok.encode_ordinary(part);
    std::string out(ids.size() * size_t(bytes), '\0');
    for (size_t i = 0; i < ids.size(); ++i)
      for (int b = 0; b < bytes; ++b) out[i * size_t(bytes) + size_t(b)] = char((uint64_t(ids[i]) >> (8 * b)) & 0xFF);
    util::write_file_atomic(dir + "/" + name + ".bin", out);
    *count = int64_t(ids.size());
  }
  tok.save(dir + "/tokenizer.bpe");
  const json::Value meta = json::Value::Object{
      {"dtype", bytes == 2 ? "uint16" : "uint32"}, {"vocab_size", tok.vocab_size()},
      {"train_tokens", st.train_tokens},           {"val_tokens", st.val_tokens},
      {"train_chars", st.train_chars},             {"val_chars", st.val_chars},
      {"tokenizer", "tokenizer.bpe"}};
  util::write_file_atomic(dir + "/meta.json", json::dump(meta) + "\n");
  return st;
}

}  // namespace attic
