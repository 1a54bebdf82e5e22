// Chapter 13: attic's GPT checked against PyTorch's numbers, llm.c's habit. The fixture
// tests/models/fixtures/gpt_tiny_nobias.safetensors (written once by
// bench/peer/make_gpt_fixture.py) holds a tiny GPT's weights, one batch, and the logits, loss
// and gradients PyTorch computed from them. Load the weights, compute the same things, and
// compare each tensor with one number:
//   rel(a, b) = max |a - b| / (max |b| + 1e-8)        a: attic's, b: PyTorch's
// which must stay below 1e-5 for the forward and 1e-4 for the gradients.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "data/data.h"
#include "models/gpt.h"
#include "nn/safetensors.h"
#include "tensor/threads.h"

using namespace attic;

// max |a - b| / (max |b| + 1e-8) over all elements of a and b (same shape).
double rel_err(const Tensor& a, const Tensor& b) {
  return max(abs(a - b)).item<double>() / (max(abs(b)).item<double>() + 1e-8);
}

// The GPT the fixture's metadata describes, with PyTorch's weights (keys "param.<name>").
std::unique_ptr<models::GPT> model_of(const nn::SafetensorsFile& f) {
  models::GPTConfig c;
  c.block_size = std::stoll(f.metadata.at("block_size"));
  c.vocab_size = std::stoll(f.metadata.at("vocab_size"));
  c.n_layer = std::stoll(f.metadata.at("n_layer"));
  c.n_head = std::stoll(f.metadata.at("n_head"));
  c.n_embd = std::stoll(f.metadata.at("n_embd"));
  c.bias = f.metadata.at("bias") == "True";
  auto model = std::make_unique<models::GPT>(c);
  nn::StateDict sd;
  for (const auto& [key, t] : f.tensors)
    if (key.starts_with("param.")) sd[key.substr(6)] = t;
  model->load_state_dict(sd);  // strict: a missing or extra name, or a wrong shape, throws
  return model;
}

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  // The source tree: default_dataset_path() is <root>/data/shakespeare_char/input.txt.
  const auto root = std::filesystem::path(default_dataset_path()).parent_path().parent_path().parent_path();
  const nn::SafetensorsFile f =
      nn::load_safetensors((root / "tests/models/fixtures/gpt_tiny_nobias.safetensors").string());

  // 1. What the file holds.
  int params = 0, grads = 0;
  for (const auto& [key, t] : f.tensors) {
    if (key.starts_with("param.")) ++params;
    else if (key.starts_with("grad.")) ++grads;
    else std::cout << key << " " << str(t.shape()) << "\n";
  }
  std::cout << params << " param.* and " << grads << " grad.* tensors; written by torch "
            << f.metadata.at("torch") << "\n";
  std::cout << "n_layer " << f.metadata.at("n_layer") << ", n_head " << f.metadata.at("n_head")
            << ", n_embd " << f.metadata.at("n_embd") << ", vocab_size "
            << f.metadata.at("vocab_size") << ", bias " << f.metadata.at("bias") << "\n";

  // 2. The forward: logits and loss.
  auto model = model_of(f);
  models::GPT::Output out = model->forward(f.tensors.at("idx"), f.tensors.at("targets"));
  const double want = f.tensors.at("loss").item<double>();
  std::printf("loss: attic %.5f, PyTorch %.5f\n", out.loss.item<double>(), want);
  std::cout << "rel |dlogits| < 1e-5: " << (rel_err(out.logits, f.tensors.at("logits")) < 1e-5)
            << "\n";
  std::cout << "rel |dloss| < 1e-5: " << (std::abs(out.loss.item<double>() - want) < 1e-5 * want)
            << "\n";

  // 3. The backward: every parameter's gradient against PyTorch's, under the same name.
  out.loss.backward();
  double worst = 0;
  for (const auto& [name, p] : model->named_parameters())
    worst = std::max(worst, rel_err(p.grad(), f.tensors.at("grad." + name)));
  std::cout << "gradients checked: " << model->named_parameters().size()
            << ", all rel < 1e-4: " << (worst < 1e-4) << "\n";

  // 4. A bug the check catches: c_proj.weight stored transposed, as GPT-2's checkpoints from
  //    OpenAI store it (a Conv1D [in, out] instead of a Linear [out, in]). The shape [C, C]
  //    fits either way, so loading succeeds, and only the numbers show the mistake.
  nn::SafetensorsFile wrong = f;
  const std::string key = "param.transformer.h.0.attn.c_proj.weight";
  wrong.tensors[key] = f.tensors.at(key).t().contiguous();
  auto bad = model_of(wrong);
  Tensor bad_logits = bad->forward(f.tensors.at("idx"), f.tensors.at("targets")).logits;
  std::cout << "with h.0's c_proj.weight transposed: loads fine, rel |dlogits| < 1e-5: "
            << (rel_err(bad_logits, f.tensors.at("logits")) < 1e-5) << "\n";
  return 0;
}
