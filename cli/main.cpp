// attic: train, sample from and evaluate language models (the GPT and GPT-2, the pooled LM,
// the ELiTA LM and the Linformer LM), nanoGPT-style.
//
//   attic train config/shakespeare_char_cpu.cfg --max_iters=500
//   attic sample --out_dir=out-shakespeare-char-cpu --start="ROMEO:"
//   attic eval --out_dir=out-shakespeare-char-cpu
//   attic compare config/compare_attention.cfg
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "lab/commands.h"
#include "tensor/error.h"
#include "util/quote_value.h"
#include "util/utf8.h"

namespace {

const char* kUsage =
    "usage: attic <command> [config files] [--key=value ...]\n"
    "commands:\n"
    "  train    train a language model: the GPT, the pooled LM, the ELiTA LM or the Linformer\n"
    "           LM (the model key; attic train --help lists the keys), or finetune GPT-2\n"
    "           (--init_from=gpt2 --gpt2_dir=DIR)\n"
    "  sample   generate text from a checkpoint\n"
    "  eval     print a checkpoint's train and val loss\n"
    "  bench    time the GEMM (attic bench gemm), a training step (attic bench train),\n"
    "           softmax vs linear attention (attic bench attention) or generation with\n"
    "           and without the attentions' caches (attic bench sample)\n"
    "  seq2seq  train an encoder-decoder on the copy or reverse task\n"
    "  compare  train several runs of one config (attic compare CONFIG) and plot them together\n"
    "  plot     draw a Linformer checkpoint's attention heads (attic plot linformer-heads)\n"
    "  data     write a dataset: a generated task (attic data digit_mul) or a text as BPE\n"
    "           tokens (attic data bpe)\n"
    "  analyze  Renyi entropy of each block (attic analyze entropy) or route attention's\n"
    "           routers (attic analyze routers)\n"
    "  export   write a GPT checkpoint as Hugging Face's GPT-2 folder (attic export --hf_dir=DIR)\n";

// One line of valid UTF-8 and at most about 500 bytes, whatever the message holds: line
// breaks become blanks, a byte that is not UTF-8 is written \xNN, and a message that quotes
// a huge value is cut where a character ends, and says how long it was.
std::string one_line(const std::string& message) {
  std::string s;
  for (size_t i = 0; i < message.size();) {
    const size_t n = attic::util::utf8_sequence_length(message, i);
    if (n == 0) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(message[i]));
      s += hex;
      i += 1;
      continue;
    }
    const char c = message[i];
    s += n == 1 && (c == '\n' || c == '\r') ? std::string(" ") : message.substr(i, n);
    i += n;
  }
  if (s.size() <= 500) return s;
  size_t cut = 400;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return s.substr(0, cut) + "... (a message of " + std::to_string(s.size()) + " bytes)";
}

// libstdc++'s "filesystem error: cannot create directories: Permission denied [/x]" as
// "cannot create directories '/x': Permission denied": the path first, then why.
std::string file_error(const std::filesystem::filesystem_error& e) {
  std::string op = e.what();
  const std::string prefix = "filesystem error: ", why = e.code().message();
  if (op.rfind(prefix, 0) == 0) op = op.substr(prefix.size());
  op = op.substr(0, op.find(": " + why));
  op = op.substr(0, op.find(" ["));
  std::string paths = " '" + e.path1().string() + "'";
  if (!e.path2().empty()) paths += " and '" + e.path2().string() + "'";
  return op + paths + ": " + why;
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
    if (command == "bench") return attic::lab::bench(args);
    if (command == "seq2seq") return attic::cli::seq2seq(args);
    if (command == "compare") return attic::lab::compare(args);
    if (command == "plot") return attic::lab::plot(args);
    if (command == "data") return attic::cli::data(args);
    if (command == "analyze") return attic::lab::analyze(args);
    if (command == "export") return attic::cli::export_hf(args);
    std::cerr << "attic: unknown command " << attic::util::quote_value(command)
              << " (attic --help lists the commands)\n";
    return 2;
  } catch (const attic::Error& e) {
    std::cout.flush();
    std::cerr << "attic: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cout.flush();
    std::cerr << "attic: " << one_line(file_error(e)) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "attic: out of memory: an allocation failed (smaller sizes, fewer threads or a "
                 "smaller batch may fit)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "attic: " << one_line(e.what()) << "\n";
    return 2;
  }
}
