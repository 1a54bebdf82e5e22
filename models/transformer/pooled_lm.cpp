#include "models/transformer/pooled_lm.h"

#include <algorithm>

#include "models/sampling.h"
#include "nn/init.h"

namespace attic::models {

PooledLM::PooledLM(const PooledLMConfig& cfg) : config(cfg) {
  cfg.validate();
  const nn::BlockOptions o = block_options(cfg);
  wte = register_module("wte", std::make_shared<nn::Embedding>(cfg.vocab_size, cfg.n_embd));
  pos = register_module("pos", std::make_shared<nn::PositionalEncoding>(cfg.n_embd, cfg.window, cfg.dropout));
  blocks = register_module("blocks", std::make_shared<nn::ModuleList>());
  for (int64_t i = 0; i < cfg.n_layer; ++i) blocks->push_back(std::make_shared<nn::EncoderBlock>(o));
  pool = register_module("pool", std::make_shared<nn::PMA>(cfg.n_embd, 1, cfg.n_head, attention_factory(cfg.attention)));
  head = register_module("head", std::make_shared<nn::Linear>(cfg.n_embd, cfg.vocab_size));
  nn::init::xavier_normal_(head->weight);
  nn::init::zeros_(head->bias);
}

// idx [B, T] -> logits [B, V]
PooledLM::Output PooledLM::forward(const Tensor& idx, const Tensor& targets) {
  ATTIC_CHECK(idx.dim() == 2 && idx.size(1) >= 1 && idx.size(1) <= config.window,
              "PooledLM: idx of shape ", str(idx.shape()), " must be [B, T] with 1 <= T <= window = ",
              config.window);
  Tensor x = pos->forward(wte->forward(idx));
  for (const auto& b : *blocks) x = std::static_pointer_cast<nn::EncoderBlock>(b)->forward(x);
  Output out;
  out.logits = head->forward(pool->forward(x).squeeze(1));
  if (targets.defined()) {
    ATTIC_CHECK(targets.dim() == 1 && targets.size(0) == idx.size(0), "PooledLM: targets of shape ",
                str(targets.shape()), " must be [B] = [", idx.size(0), "]");
    out.loss = cross_entropy(out.logits, targets);
  }
  return out;
}

Tensor PooledLM::loss(const Tensor& x, const Tensor& y) {
  return forward(x, y.select(1, y.size(1) - 1).contiguous()).loss;
}

Tensor PooledLM::generate(const Tensor& idx_in, int64_t max_new_tokens, double temperature,
                          int64_t top_k, Generator* gen, bool /*use_cache*/) {
  return generate_tokens(*this, idx_in, max_new_tokens, config.window, temperature, top_k,
                         gen ? *gen : default_generator(),
                         [&](const Tensor& ctx) { return forward(ctx).logits; });  // [B, V]
}

}  // namespace attic::models
