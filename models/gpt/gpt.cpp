#include "models/gpt/gpt.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/sampling.h"

namespace attic::models {

void GPTConfig::validate() const {
  ATTIC_CHECK(block_size > 0 && vocab_size > 0 && n_layer > 0 && n_head > 0 && n_embd > 0,
              "GPT: block_size, vocab_size, n_layer, n_head and n_embd must be positive (got ",
              block_size, ", ", vocab_size, ", ", n_layer, ", ", n_head, ", ", n_embd, ")");
  ATTIC_CHECK(n_embd % n_head == 0, "GPT: n_embd ", n_embd, " is not a multiple of n_head ", n_head);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, "GPT: dropout must be in [0, 1), got ", dropout);
}

GPT::GPT(const GPTConfig& cfg) : config(cfg) {
  cfg.validate();
  transformer = register_module("transformer", std::make_shared<nn::Module>());
  wte = transformer->register_module("wte", std::make_shared<nn::Embedding>(cfg.vocab_size, cfg.n_embd));
  wpe = transformer->register_module("wpe", std::make_shared<nn::Embedding>(cfg.block_size, cfg.n_embd));
  drop = transformer->register_module("drop", std::make_shared<nn::Dropout>(cfg.dropout));
  h = transformer->register_module("h", std::make_shared<nn::ModuleList>());
  for (int64_t i = 0; i < cfg.n_layer; ++i) h->push_back(std::make_shared<Block>(cfg));
  ln_f = transformer->register_module("ln_f", std::make_shared<nn::LayerNorm>(cfg.n_embd, cfg.bias));
  lm_head = register_module("lm_head", std::make_shared<nn::Linear>(cfg.n_embd, cfg.vocab_size, false));
  // Weight tying (Press & Wolf 2017): the output projection is the token embedding itself.
  lm_head->weight = lm_head->replace_parameter("weight", wte->weight);

  // nanoGPT's _init_weights, then the scaled c_proj init.
  const double proj_std = 0.02 / std::sqrt(2.0 * double(cfg.n_layer));
  for (auto& [name, p] : named_parameters()) {
    const bool is_norm = name.find(".ln_") != std::string::npos;
    if (is_norm) continue;  // LayerNorm: weight 1, bias 0 already
    if (name.ends_with(".bias")) nn::init::zeros_(p);
    else if (name.ends_with("c_proj.weight")) nn::init::normal_(p, 0.0, proj_std);
    else nn::init::normal_(p, 0.0, 0.02);
  }
}

GPT::Output GPT::forward(const Tensor& idx, const Tensor& targets) {
  ATTIC_CHECK(idx.defined() && idx.dim() == 2 && idx.dtype() == kInt64,
              "GPT: idx must be an int64 tensor [B, T], got ",
              idx.defined() ? str(idx.shape()) : std::string("undefined"));
  const int64_t T = idx.size(1);
  ATTIC_CHECK(T <= config.block_size, "GPT: cannot forward a sequence of length ", T,
              ", block size is only ", config.block_size);
  Tensor pos = arange(0, double(T), 1, TensorOptions(kInt64).device(idx.device()));
  Tensor x = drop->forward(wte->forward(idx) + wpe->forward(pos));  // [B, T, C] + [T, C]
  for (size_t i = 0; i < h->size(); ++i) x = h->at<Block>(i)->forward(x);
  x = ln_f->forward(x);

  Output out;
  if (targets.defined()) {
    ATTIC_CHECK(targets.shape() == idx.shape(), "GPT: targets ", str(targets.shape()),
                " must have idx's shape ", str(idx.shape()));
    out.logits = lm_head->forward(x);  // [B, T, V]
    out.loss = cross_entropy(out.logits.view({-1, config.vocab_size}), targets.reshape({-1}), -1);
  } else {
    // Inference needs only the last position: skip the [B, T, V] projection.
    out.logits = lm_head->forward(x.narrow(1, T - 1, 1));  // [B, 1, V]
  }
  return out;
}

Tensor GPT::generate(const Tensor& idx_in, int64_t max_new_tokens, double temperature,
                     int64_t top_k, Generator* gen) {
  const int64_t B = idx_in.size(0), V = config.vocab_size;
  // forward without targets returns the last position's logits only: [B, 1, V]
  return generate_tokens(*this, idx_in, max_new_tokens, config.block_size, temperature, top_k,
                         gen ? *gen : default_generator(),
                         [&](const Tensor& ctx) { return forward(ctx).logits.view({B, V}); });
}

int64_t GPT::num_params_non_embedding() const { return num_parameters() - wpe->weight.numel(); }

optim::AdamW GPT::configure_optimizers(double weight_decay, double learning_rate,
                                       std::pair<double, double> betas) {
  return optim::configure_optimizers(*this, weight_decay, learning_rate, betas);
}

}  // namespace attic::models
