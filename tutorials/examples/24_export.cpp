// Chapter 24: a GPT-2 with a shorter context, and back to transformers' layout. load_gpt2 with
// block_size 64 keeps wpe's first 64 rows (nanoGPT's crop_block_size); save_gpt2 writes what
// GPT2LMHeadModel.from_pretrained reads, which is what `attic export --hf_dir=DIR` calls.
#include <cstdio>
#include <filesystem>
#include <string>

#include "data/text_dataset.h"
#include "models/gpt/gpt2_folder.h"
#include "nn/safetensors.h"
#include "ops/ops.h"
#include "util/files.h"

using namespace attic;
namespace fs = std::filesystem;

int main() {
  const fs::path root = fs::path(default_dataset_path()).parent_path().parent_path().parent_path();
  const std::string dir = (root / "tests/models/fixtures/gpt2_tiny").string();

  const auto full = models::load_gpt2(dir, "huggingface");
  const auto cropped = models::load_gpt2(dir, "huggingface", /*block_size=*/64);
  const Tensor& wpe = cropped->wpe->weight;
  std::printf("block_size %lld -> %lld; wpe %s -> %s, its rows the first 64: %s\n", (long long)full->config.block_size,
              (long long)cropped->config.block_size, str(full->wpe->weight.sizes()).c_str(), str(wpe.sizes()).c_str(),
              max(abs(wpe - full->wpe->weight.narrow(0, 0, 64))).item<float>() == 0 ? "yes" : "no");

  // save_gpt2: config.json and model.safetensors, into a folder where the program runs.
  const std::string out = "gpt2_export";
  models::save_gpt2(*cropped, out);
  std::printf("config.json: %s", util::read_text_file(out + "/config.json", "config.json").c_str());
  const nn::SafetensorsFile file = nn::load_safetensors(out + "/model.safetensors");
  std::printf("model.safetensors: %zu tensors, lm_head.weight among them: %s\n", file.tensors.size(),
              file.tensors.count("lm_head.weight") ? "yes" : "no");
  for (const char* name : {"transformer.h.1.mlp.c_fc.weight", "transformer.wpe.weight"})
    std::printf("  %s %s\n", name, str(file.tensors.at(name).sizes()).c_str());

  // Read back, the folder is the model that was saved.
  const auto back = models::load_gpt2(out, "huggingface");
  bool same = true;
  const nn::StateDict a = cropped->state_dict(), b = back->state_dict();
  for (const auto& [name, t] : a) same = same && max(abs(t - b.at(name))).item<float>() == 0;
  std::printf("read back: block_size %lld, every tensor equal: %s\n", (long long)back->config.block_size,
              same ? "yes" : "no");
  return 0;
}
