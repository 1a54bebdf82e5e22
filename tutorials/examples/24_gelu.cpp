// Chapter 24: GPT-2's GELU. OpenAI's gpt-2 (src/model.py) computes the tanh approximation
//   0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))
// (transformers' "gelu_new"); nanoGPT's nn.GELU() is the exact x Φ(x). GPTConfig::gelu picks.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "data/text_dataset.h"
#include "models/gpt/gpt2_folder.h"
#include "nn/safetensors.h"
#include "ops/ops.h"
#include "tensor/threads.h"

using namespace attic;
namespace fs = std::filesystem;

int main() {
  set_num_threads(1);
  // 1. The two curves, and their largest gap on [-6, 6], in float64: six decimals of a float32
  //    value near 3 would be its rounding.
  const Tensor x = tensor({-3.0, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0}).to(DType::Float64);
  const Tensor exact = gelu(x), approx = gelu(x, "tanh");
  std::printf("%6s %10s %10s %10s\n", "x", "exact", "tanh", "difference");
  for (int64_t i = 0; i < x.numel(); ++i)
    std::printf("%6.1f %10.6f %10.6f %10.6f\n", x[i].item<double>(), exact[i].item<double>(), approx[i].item<double>(),
                approx[i].item<double>() - exact[i].item<double>());
  const Tensor grid = arange(-6.0, 6.0, 1e-3).to(DType::Float64);
  const Tensor gap = abs(gelu(grid, "tanh") - gelu(grid));
  std::printf("largest |tanh - exact| on [-6, 6]: %.5f\n", max(gap).item<double>());

  // 2. The tiny GPT-2 with each GELU, against transformers' logits (gelu_new).
  const fs::path root = fs::path(default_dataset_path()).parent_path().parent_path().parent_path();
  const std::string dir = (root / "tests/models/fixtures/gpt2_tiny").string();
  const nn::SafetensorsFile want = nn::load_safetensors(dir + "/expected.safetensors");
  // load_gpt2 takes "gelu_new" from config.json; the same weights in a GPT with the exact
  // GELU are what nanoGPT's from_pretrained builds.
  const auto gpt2 = models::load_gpt2(dir, "huggingface");
  models::GPTConfig cfg = gpt2->config;
  cfg.gelu = "none";
  models::GPT nanogpt(cfg);
  nanogpt.load_state_dict(gpt2->state_dict());
  nanogpt.eval();
  for (models::GPT* m : {gpt2.get(), static_cast<models::GPT*>(&nanogpt)}) {
    const Tensor logits = m->forward(want.tensors.at("idx"), want.tensors.at("targets")).logits;
    const double d = max(abs(logits - want.tensors.at("logits"))).item<double>();
    std::printf("gelu = %s: largest logit difference from transformers' %s\n", m->config.gelu.c_str(),
                d < 1e-6 ? "below 1e-6" : d < 1e-4 ? "between 1e-6 and 1e-4" : "above 1e-4");
  }
  return 0;
}
