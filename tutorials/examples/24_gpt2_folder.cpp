// Chapter 24: a GPT-2 folder as Hugging Face's transformers writes it, read into attic's GPT.
// tests/models/fixtures/gpt2_tiny is a GPT-2 of 2 layers at random init, written by
// GPT2LMHeadModel.save_pretrained (bench/peer/make_gpt2_fixture.py): the four files that the
// Hub's openai-community/gpt2 holds, at a size that fits in the repository.
#include <cstdio>
#include <filesystem>
#include <string>

#include "data/text_dataset.h"
#include "models/gpt/gpt2_folder.h"
#include "nn/safetensors.h"
#include "ops/ops.h"

using namespace attic;
namespace fs = std::filesystem;

// The parameters of a GPT-2 of this shape: per block two LayerNorms (2C each), c_attn
// (C x 3C + 3C), attn.c_proj (C x C + C), c_fc (C x 4C + 4C), mlp.c_proj (4C x C + C); then
// wte (V x C), wpe (T x C) and ln_f (2C). lm_head is wte.
int64_t gpt2_params(int64_t L, int64_t C, int64_t V, int64_t T) {
  return L * (12 * C * C + 13 * C) + V * C + T * C + 2 * C;
}

int main() {
  const fs::path root = fs::path(default_dataset_path()).parent_path().parent_path().parent_path();
  const std::string dir = (root / "tests/models/fixtures/gpt2_tiny").string();
  for (const char* f : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
    std::printf("%-18s %7lld bytes\n", f, (long long)fs::file_size(fs::path(dir) / f));

  // config.json -> GPTConfig: biases on, GELU from activation_function ("gelu_new": tanh).
  const models::GPTConfig c = models::read_gpt2_config(dir, "huggingface");
  std::printf("n_layer %lld, n_head %lld, n_embd %lld, block_size %lld (n_positions), vocab_size %lld, bias %s, gelu %s\n",
              (long long)c.n_layer, (long long)c.n_head, (long long)c.n_embd, (long long)c.block_size,
              (long long)c.vocab_size, c.bias ? "true" : "false", c.gelu.c_str());

  // The four Linear weights of a block are Conv1D in transformers, stored [in, out]; attic's
  // Linear is [out, in], so load_gpt2 transposed them. The other tensors load as they are.
  const nn::SafetensorsFile file = nn::load_safetensors(dir + "/model.safetensors");
  const auto model = models::load_gpt2(dir, "huggingface");
  const nn::StateDict mine = model->state_dict();
  const std::pair<const char*, bool> names[] = {
      {"transformer.h.0.attn.c_attn.weight", true}, {"transformer.h.0.attn.c_proj.weight", true},
      {"transformer.h.0.mlp.c_fc.weight", true},    {"transformer.h.0.mlp.c_proj.weight", true},
      {"transformer.h.0.mlp.c_fc.bias", false},     {"transformer.wte.weight", false}};
  std::printf("%-36s %-11s %-11s %s\n", "tensor", "stored", "in attic", "equal");
  for (const auto& [name, conv1d] : names) {
    const Tensor& stored = file.tensors.at(name);
    const Tensor& loaded = mine.at(name);
    const Tensor back = conv1d ? loaded.transpose(0, 1) : loaded;
    std::printf("%-36s %-11s %-11s %s\n", name, str(stored.sizes()).c_str(), str(loaded.sizes()).c_str(),
                max(abs(back - stored)).item<float>() != 0 ? "NO" : conv1d ? "transposed" : "as stored");
  }
  std::printf("%zu tensors stored, %zu in attic's state_dict (lm_head.weight added)\n", file.tensors.size(),
              mine.size());
  std::printf("lm_head.weight is wte.weight: %s\n", model->lm_head->weight.is_same(model->wte->weight) ? "yes" : "no");

  // The count: all parameters (the tied weight once), and nanoGPT's, without wpe.
  const int64_t all = model->num_params_non_embedding() + model->wpe->weight.numel();
  std::printf("parameters %lld (formula %lld), without wpe %lld\n", (long long)all,
              (long long)gpt2_params(c.n_layer, c.n_embd, c.vocab_size, c.block_size),
              (long long)model->num_params_non_embedding());
  // The same formula for OpenAI's four, with V = 50257 and T = 1024.
  for (const models::Gpt2Size& s : models::gpt2_sizes()) {
    const int64_t n = gpt2_params(s.n_layer, s.n_embd, 50257, 1024);
    std::printf("%-12s %2lld layers, %2lld heads, C %4lld: %11lld parameters, %.2fM without wpe (OpenAI: %s)\n",
                s.name.c_str(), (long long)s.n_layer, (long long)s.n_head, (long long)s.n_embd, (long long)n,
                double(n - 1024 * s.n_embd) / 1e6, s.params);
  }

  // Without the files, the error says what to fetch. attic downloads nothing.
  try {
    models::load_gpt2("", "gpt2");
  } catch (const Error& e) {
    std::printf("load_gpt2(\"\", \"gpt2\"):\n  %s\n", e.what());
  }
  return 0;
}
