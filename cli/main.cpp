// attic: train, sample from and evaluate the char-level GPT, nanoGPT-style.
//
//   attic train config/shakespeare_char_cpu.cfg --max_iters=500
//   attic sample --out_dir=out-shakespeare-char-cpu --start="ROMEO:"
//   attic eval --out_dir=out-shakespeare-char-cpu
//   attic compare config/compare_attention.cfg
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "tensor/error.h"

namespace {

const char* kUsage =
    "usage: attic <command> [config files] [--key=value ...]\n"
    "commands:\n"
    "  train    train the GPT (attic train --help lists the keys)\n"
    "  sample   generate text from a checkpoint\n"
    "  eval     print a checkpoint's train and val loss\n"
    "  bench    time the GEMM (attic bench gemm), a training step (attic bench train),\n"
    "           softmax vs linear attention (attic bench attention) or generation with\n"
    "           and without the attentions' caches (attic bench sample)\n"
    "  seq2seq  train an encoder-decoder on the copy or reverse task\n"
    "  compare  train several runs of one config (attic compare CONFIG) and plot them together\n"
    "  plot     draw a Linformer checkpoint's attention heads (attic plot linformer-heads)\n"
    "  data     write a generated dataset (attic data digit_mul --out=FILE)\n"
    "  analyze  Renyi entropy of each block (attic analyze entropy) or route attention's\n"
    "           routers (attic analyze routers)\n";

// One line, whatever the message holds.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "train") return attic::cli::train(args);
    if (command == "sample") return attic::cli::sample(args);
    if (command == "eval") return attic::cli::eval(args);
    if (command == "bench") return attic::cli::bench(args);
    if (command == "seq2seq") return attic::cli::seq2seq(args);
    if (command == "compare") return attic::cli::compare(args);
    if (command == "plot") return attic::cli::plot(args);
    if (command == "data") return attic::cli::data(args);
    if (command == "analyze") return attic::cli::analyze(args);
    std::cerr << "attic: unknown command '" << command << "'\n" << kUsage;
    return 2;
  } catch (const attic::Error& e) {
    std::cout.flush();
    std::cerr << "attic: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {  // e.g. std::bad_alloc, filesystem errors
    std::cout.flush();
    std::cerr << "attic: " << one_line(e.what()) << "\n";
    return 2;
  }
}
