// attic export: a GPT checkpoint as Hugging Face's transformers reads a GPT-2
// (GPT2LMHeadModel.from_pretrained(DIR)): config.json and model.safetensors, with the
// tokenizer's vocab.json and merges.txt copied from the GPT-2 folder it was finetuned from.
//
//   attic export --out_dir=out-shakespeare --hf_dir=gpt2-shakespeare
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "models/gpt/gpt2_folder.h"
#include "train/restore.h"
#include "util/command_line.h"

namespace attic::cli {

using namespace util;
namespace fs = std::filesystem;

int export_hf(const std::vector<std::string>& args) {
  std::string out_dir = "out", hf_dir;
  Options opts;
  opts.bind("out_dir", out_dir, "the checkpoint's folder").non_empty();
  opts.bind("hf_dir", hf_dir, "the folder to write config.json and model.safetensors into").non_empty();
  std::ostringstream quiet;
  if (!parse_command_line(opts, args, "usage: attic export --out_dir=DIR --hf_dir=DIR", quiet)) return 0;
  ATTIC_CHECK(!hf_dir.empty(), "export: --hf_dir=DIR is required");
  std::error_code ec;
  ATTIC_CHECK(!fs::exists(hf_dir, ec) || fs::is_directory(hf_dir, ec), "export: hf_dir '", hf_dir,
              "' is a file; it must be a folder, or not exist yet");
  train::Restored r = train::restore(out_dir);
  const auto* gpt = dynamic_cast<const models::GPT*>(r.model.get());
  ATTIC_CHECK(gpt != nullptr && r.config.bias && r.config.block_attention() == "softmax", "export: the checkpoint in ",
              out_dir, " is model ", r.config.model, " with attention ", r.config.block_attention(), r.config.bias ? "" : " and no biases",
              "; a GPT-2 is model gpt with softmax attention and biases");
  models::save_gpt2(*gpt, hf_dir);
  std::cout << "wrote " << hf_dir << "/config.json and model.safetensors";
  // The tokenizer files of the GPT-2 folder the run started from, when it was one.
  const std::string from = r.config.gpt2_dir;
  if (!from.empty() && fs::is_directory(from, ec)) {
    for (const char* f : {"vocab.json", "merges.txt", "encoder.json", "vocab.bpe"})
      if (fs::is_regular_file(fs::path(from) / f, ec)) {
        fs::copy_file(fs::path(from) / f, fs::path(hf_dir) / f, fs::copy_options::overwrite_existing);
        std::cout << ", " << f;
      }
    std::cout << " (from " << from << ")";
  } else if (r.tokenizer->kind() == "bpe") {
    dynamic_cast<const BpeTokenizer&>(*r.tokenizer).save(hf_dir + "/tokenizer.bpe");
    std::cout << ", and attic's tokenizer.bpe (transformers reads the model; its tokenizer is attic's own)";
  }
  std::cout << "\n";
  return 0;
}

}  // namespace attic::cli
