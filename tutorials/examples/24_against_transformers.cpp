// Chapter 24: attic's GPT-2 against transformers' own numbers. expected.safetensors holds what
// GPT2LMHeadModel computed from tests/models/fixtures/gpt2_tiny (bench/peer/make_gpt2_fixture.py):
// the logits and loss of a batch, and 24 greedy tokens after a prompt.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "data/text_dataset.h"
#include "models/gpt/gpt2_folder.h"
#include "nn/safetensors.h"
#include "ops/ops.h"
#include "tensor/threads.h"

using namespace attic;
namespace fs = std::filesystem;

// Bytes as they print here: a newline as \n, a byte beyond ASCII as \xNN.
std::string shown(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", c);
    out += c == '\n' ? std::string("\\n") : c >= 0x80 ? std::string(hex) : std::string(1, char(c));
  }
  return out;
}

int main() {
  set_num_threads(1);
  const fs::path root = fs::path(default_dataset_path()).parent_path().parent_path().parent_path();
  const std::string dir = (root / "tests/models/fixtures/gpt2_tiny").string();
  const nn::SafetensorsFile want = nn::load_safetensors(dir + "/expected.safetensors");
  const auto model = models::load_gpt2(dir, "huggingface");

  // 1. The batch: idx and targets [2, 16], one target -1 (ignored).
  const Tensor& idx = want.tensors.at("idx");
  const auto out = model->forward(idx, want.tensors.at("targets"));
  const double dl = max(abs(out.logits - want.tensors.at("logits"))).item<double>();
  std::printf("logits %s, largest difference from transformers' below 1e-5: %s\n", str(out.logits.sizes()).c_str(),
              dl < 1e-5 ? "yes" : "no");
  std::printf("loss: attic %.4f, transformers %.4f (ln 320 = %.4f)\n", out.loss.item<double>(),
              want.tensors.at("loss").item<double>(), std::log(320.0));

  // 2. Greedy generation, with and without the KV cache, against model.generate(do_sample=False).
  const Tensor& prompt = want.tensors.at("prompt");
  const std::vector<int64_t> hf = want.tensors.at("greedy.cache").to_vector<int64_t>();
  for (bool cache : {true, false}) {
    const std::vector<int64_t> ids = model->generate(prompt, 24, /*temperature=*/0, 0, nullptr, cache).to_vector<int64_t>();
    std::printf("greedy, use_cache %-5s: %zu ids, equal to transformers': %s\n", cache ? "true" : "false", ids.size(),
                ids == hf ? "yes" : "no");
  }

  // 3. Text in and out, through the folder's tokenizer (vocab.json and merges.txt).
  const BpeTokenizer tok = models::read_gpt2_tokenizer(dir);
  const std::vector<int64_t> start = tok.encode("ROMEO:");
  std::printf("tokenizer: %lld ids; \"ROMEO:\" is", (long long)tok.vocab_size());
  for (int64_t id : start) std::printf(" %lld", (long long)id);
  const Tensor ids = model->generate(from_vector(start, {1, int64_t(start.size())}), 12, 0, 0, nullptr, true);
  std::printf("\ngreedy: %s\n", shown(tok.decode(ids.to_vector<int64_t>())).c_str());
  return 0;
}
