// Chapter 23: a folder of token ids, as `attic data bpe` writes it and nanoGPT's
// data/shakespeare/prepare.py does: train.bin and val.bin (uint16, little-endian), beside
// them tokenizer.bpe and meta.json. Here for the first 20,000 characters of Shakespeare.
#include <cstdio>
#include <filesystem>
#include <string>

#include "data/text_dataset.h"
#include "data/token_dataset.h"
#include "util/files.h"

using namespace attic;
namespace fs = std::filesystem;

// A newline written \n, so that a window prints on one line.
std::string visible(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

int main() {
  const std::string text = util::read_text_file(default_dataset_path(), "the corpus").substr(0, 20000);
  const fs::path dir = "shakespeare_bpe300";  // in the folder the program runs in

  // What `attic data bpe --train_vocab=300` does: a BPE trained on the train split (the first
  // int(n * 0.9) characters), then both splits encoded and written.
  const BpeTokenizer tok = BpeTokenizer::train(text.substr(0, size_t(train_split_size(int64_t(text.size())))), 300);
  const TokenFolderStats st = write_token_folder(dir.string(), tok, text);
  for (const char* f : {"meta.json", "tokenizer.bpe", "train.bin", "val.bin"})
    std::printf("%-13s %6lld bytes\n", f, (long long)fs::file_size(dir / f));
  std::printf("meta.json: %s", util::read_text_file(dir / "meta.json", "meta.json").c_str());
  std::printf("train: %lld characters -> %lld tokens; val: %lld -> %lld\n", (long long)st.train_chars,
              (long long)st.train_tokens, (long long)st.val_chars, (long long)st.val_tokens);

  // Two bytes per id, the low byte first: ids below 256 have a zero high byte.
  const std::string bin = util::read_text_file(dir / "train.bin", "train.bin");
  std::printf("train.bin starts:");
  for (int i = 0; i < 12; ++i) std::printf(" %02x", static_cast<unsigned char>(bin[size_t(i)]));
  const std::vector<int64_t> first = tok.encode(text.substr(0, 14));
  std::printf("\nencode(\"First Citizen:\"):");
  for (int64_t id : first) std::printf(" %lld", (long long)id);
  std::printf("\n");

  // TokenDataset reads the folder; its batches are drawn as TextDataset's are (chapter 7).
  const TokenDataset ds = TokenDataset::open(dir.string());
  std::printf("TokenDataset: %s, vocab %lld, train %lld, val %lld, %.4f characters per val token\n",
              ds.describe().c_str(), (long long)ds.vocab_size(), (long long)ds.size(Split::Train),
              (long long)ds.size(Split::Val), ds.chars_per_token(Split::Val));
  Generator gen(1337);
  const Batch b = ds.get_batch(Split::Train, 2, 8, gen);
  for (int64_t r = 0; r < 2; ++r)
    std::printf("x[%lld] \"%s\"  y[%lld] \"%s\"\n", (long long)r,
                visible(tok.decode(b.x[r].to_vector<int64_t>())).c_str(), (long long)r,
                visible(tok.decode(b.y[r].to_vector<int64_t>())).c_str());
  return 0;
}
