// Chapter 11: the whole GPT of the laptop recipe (config/shakespeare_char_cpu.cfg): its
// parameter names and count, the tied output weight, the scaled init, causality, and the
// loss before training.
#include <cmath>
#include <cstdio>
#include <iostream>

#include "data/data.h"
#include "models/gpt.h"
#include "tensor/threads.h"

using namespace attic;

// Standard deviation of all the elements of t.
double stddev(const Tensor& t) { return std::sqrt(var(t).item<double>()); }

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  manual_seed(1337);
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  models::GPTConfig cfg;  // the laptop recipe
  cfg.block_size = 64;
  cfg.vocab_size = ds.vocab_size();
  cfg.n_layer = 4;
  cfg.n_head = 4;
  cfg.n_embd = 128;
  cfg.bias = false;  // train.py's default
  models::GPT model(cfg);

  // 1. nanoGPT's names. Blocks h.1 to h.3 repeat h.0.
  const nn::NamedTensors params = model.named_parameters();
  for (const auto& [name, p] : params) {
    const bool later_block =
        name.starts_with("transformer.h.") && !name.starts_with("transformer.h.0.");
    if (!later_block) std::cout << name << " " << str(p.shape()) << "\n";
    if (name == "transformer.h.0.mlp.c_proj.weight") std::cout << "... h.1, h.2, h.3 ...\n";
  }
  std::cout << params.size() << " parameter tensors\n";

  // 2. The count nanoGPT prints leaves out wpe. Per block 12 C² (c_attn 3C², attn.c_proj C²,
  //    c_fc 4C², mlp.c_proj 4C²) and 2C (ln_1, ln_2); then ln_f C and wte V C.
  const int64_t L = cfg.n_layer, C = cfg.n_embd, V = cfg.vocab_size;
  std::cout << "num_parameters " << model.num_parameters() << ", without wpe "
            << model.num_params_non_embedding() << ", by formula "
            << 12 * L * C * C + 2 * L * C + C + V * C << "\n";

  // 3. Weight tying: lm_head.weight is wte.weight, one tensor with two names.
  std::cout << "lm_head.weight is wte.weight: " << model.lm_head->weight.is_same(model.wte->weight)
            << ", state_dict has lm_head.weight: "
            << (model.state_dict().count("lm_head.weight") == 1) << "\n";

  // 4. Init: N(0, 0.02) everywhere, but N(0, 0.02/√(2 L)) for the two c_proj per block.
  const auto& block0 = model.h->at<models::Block>(0);
  std::printf("std: wte %.4f, c_attn %.4f, attn.c_proj %.4f, mlp.c_proj %.4f\n",
              stddev(model.wte->weight), stddev(block0->attn_as<nn::CausalSelfAttention>()->c_attn->weight),
              stddev(block0->attn_as<nn::CausalSelfAttention>()->c_proj->weight), stddev(block0->mlp->c_proj->weight));
  std::printf("0.02 / sqrt(2 * %lld) = %.4f\n", (long long)L, 0.02 / std::sqrt(2.0 * double(L)));

  // 5. Causality: change the token at t = 10; the logits before t = 10 stay the same.
  const std::string text = "ROMEO:\nWhat say you?";
  Tensor idx = from_vector(ds.tokenizer().encode(text), {1, int64_t(text.size())});
  Tensor changed = idx.clone();
  changed[0][10].fill_(double(ds.tokenizer().encode("!")[0]));  // "What" -> "Wha!"
  Tensor a = model.forward(idx, idx).logits;  // [1, T, V] (any targets: all logits)
  Tensor b = model.forward(changed, idx).logits;
  std::cout << "logits " << str(a.shape()) << "; changed at t =";
  for (int64_t t = 0; t < idx.size(1); ++t)
    if (max(abs(a[0][t] - b[0][t])).item<float>() != 0.0f) std::cout << " " << t;
  std::cout << "\n";

  // 6. Before training every character is about equally likely: the loss is near ln V.
  Generator gen(1337);
  Batch batch = ds.get_batch(Split::Train, 12, 64, gen);
  std::printf("initial loss %.2f, ln %lld = %.2f\n",
              model.forward(batch.x, batch.y).loss.item<double>(), (long long)V,
              std::log(double(V)));
  return 0;
}
