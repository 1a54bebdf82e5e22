// attic data: write a dataset that `attic train --dataset=...` reads.
//
//   attic data digit_mul --digits=4 --lines=500000 --out=digit_mul_4.txt
//   attic data bpe --train_vocab=512 --out_dir=data/shakespeare_bpe512
//   attic data bpe --tokenizer=GPT2_DIR --text=input.txt --out_dir=data/shakespeare
//
// digit_mul is the char-level multiplication task of Vadimbuildercxx/reflex_attention
// (data/digit_mul.h). The same text, with seed 0 and 500,000 lines, is what the dataset
// name digit_mul:4 (or digit_mul:5) generates in memory.
//
// bpe is nanoGPT's data/shakespeare/prepare.py: the text's first 90% of characters is the
// train split and the rest val, each encoded with a byte-level BPE (GPT-2's, one read from a
// file, or one trained here on the train split) into train.bin and val.bin, with the
// tokenizer and meta.json beside them (data/token_dataset.h).
#include <chrono>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>

#include "cli/commands.h"
#include "data/bpe.h"
#include "data/digit_mul.h"
#include "data/text_dataset.h"
#include "data/token_dataset.h"
#include "data/tokenizer.h"
#include "models/gpt/gpt2_folder.h"
#include "tensor/error.h"
#include "util/atomic_file.h"
#include "util/command_line.h"
#include "util/files.h"

namespace attic::cli {

using namespace util;

namespace {

int digit_mul(const std::vector<std::string>& args) {
  int64_t digits = 4, lines = 500000, seed = 0;
  std::string out;
  Options opts;
  opts.bind("digits", digits, "digits of a and of b (1..9); the fork's char-level runs use 4");
  opts.bind("lines", lines, "problems, one per line").int_range(1, 100000000);
  opts.bind("seed", seed, "the generator's seed (0 is what digit_mul:4 and digit_mul:5 use)")
      .int_range(0, std::numeric_limits<int64_t>::max());
  opts.bind("out", out, "the text file to write").non_empty();
  std::ostringstream quiet;
  if (!parse_command_line(opts, args, "usage: attic data digit_mul --out=FILE [--key=value ...]", quiet))
    return 0;
  ATTIC_CHECK(!out.empty(), "data digit_mul: --out=FILE is required");
  check_output_file(out, "the dataset (--out)");
  const std::string text = digit_mul_text(digits, lines, uint64_t(seed));
  util::write_file_atomic(out, text);
  const CharTokenizer tok = CharTokenizer::from_text(text);
  std::cout << "wrote " << out << ": " << lines << " lines, " << text.size() << " characters, vocab "
            << tok.vocab_size() << "\n";
  return 0;
}

int bpe(const std::vector<std::string>& args) {
  std::string text_path, tokenizer, out_dir;
  int64_t train_vocab = 0;
  double train_fraction = 0.9;
  Options opts;
  opts.bind("text", text_path, "the text file to encode (default: the shipped Shakespeare)");
  opts.bind("tokenizer", tokenizer, "a BPE: a GPT-2 folder (vocab.json and merges.txt, or encoder.json and "
            "vocab.bpe), an attic tokenizer.bpe, or a tiktoken rank file");
  opts.bind("train_vocab", train_vocab, "instead of --tokenizer: train a BPE of this many ids on the train split "
            "(minbpe's algorithm; 257 or more: 256 bytes, the merges and <|endoftext|>)")
      .int_range(0, 1 << 20);
  opts.bind("train_fraction", train_fraction, "the share of the text's characters in train.bin")
      .float_range(0, 1, true, true);
  opts.bind("out_dir", out_dir, "the folder to write train.bin, val.bin, tokenizer.bpe and meta.json into")
      .non_empty();
  std::ostringstream quiet;
  if (!parse_command_line(opts, args, "usage: attic data bpe (--tokenizer=PATH | --train_vocab=N) "
                          "--out_dir=DIR [--text=FILE]", quiet))
    return 0;
  ATTIC_CHECK(!out_dir.empty(), "data bpe: --out_dir=DIR is required");
  ATTIC_CHECK(tokenizer.empty() != (train_vocab == 0), "data bpe: give --tokenizer=PATH or --train_vocab=N, one of them");
  ATTIC_CHECK(train_vocab == 0 || train_vocab >= 257, "data bpe: train_vocab must be at least 257 (the 256 bytes and "
              "<|endoftext|>), got ", train_vocab);
  std::error_code ec;
  ATTIC_CHECK(!std::filesystem::exists(out_dir, ec) || std::filesystem::is_directory(out_dir, ec), "data bpe: out_dir '",
              out_dir, "' is a file; it must be a folder, or not exist yet");
  if (text_path.empty()) text_path = default_dataset_path();
  const std::string text = read_text_file(text_path, "the text (--text)");
  ATTIC_CHECK(!text.empty(), "data bpe: the text ", text_path, " is empty");
  const auto t0 = std::chrono::steady_clock::now();
  BpeTokenizer tok = [&] {
    if (train_vocab > 0) {
      const int64_t n_train = train_split_size(int64_t(text.size()), train_fraction);
      return BpeTokenizer::train(text.substr(0, size_t(n_train)), train_vocab);
    }
    if (std::filesystem::is_directory(tokenizer, ec)) return models::read_gpt2_tokenizer(tokenizer);
    return BpeTokenizer::load(tokenizer);
  }();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (train_vocab > 0)
    std::cout << "trained a BPE of " << tok.vocab_size() << " ids on the train split of " << text_path << " in "
              << secs << " s\n";
  const TokenFolderStats st = write_token_folder(out_dir, tok, text, train_fraction);
  std::printf("wrote %s: train %lld tokens, val %lld tokens, vocab %lld, %.3f characters per token\n",
              out_dir.c_str(), (long long)st.train_tokens, (long long)st.val_tokens, (long long)tok.vocab_size(),
              double(st.train_chars + st.val_chars) / double(st.train_tokens + st.val_tokens));
  return 0;
}

}  // namespace

int data(const std::vector<std::string>& args) {
  const std::string what = pick_subcommand("data", {
      {"digit_mul", "the multiplication task of the reflex-attention fork, as a text file"},
      {"bpe", "a text as BPE token ids: train.bin and val.bin, as nanoGPT's prepare.py writes them"}}, args);
  if (what.empty()) return 0;
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  return what == "bpe" ? bpe(rest) : digit_mul(rest);
}

}  // namespace attic::cli
