#include "models/elita/elita_lm.h"

#include "models/sampling.h"
#include "nn/init.h"

namespace attic::models::elita {

// cfg -> wte [V, W], n_layer blocks, lm_head tied to wte
ElitaLM::ElitaLM(const ElitaConfig& cfg) : config(cfg) {
  cfg.validate();
  transformer = register_module("transformer", std::make_shared<nn::Module>());
  wte = transformer->register_module("wte", std::make_shared<nn::Embedding>(cfg.vocab_size, cfg.n_embd));
  drop = transformer->register_module("drop", std::make_shared<nn::Dropout>(cfg.dropout));
  h = transformer->register_module("h", std::make_shared<nn::ModuleList>());
  for (int64_t i = 0; i < cfg.n_layer; ++i) h->push_back(std::make_shared<Block>(cfg));
  lm_head = register_module("lm_head", std::make_shared<nn::Linear>(cfg.n_embd, cfg.vocab_size, false));
  // Weight tying (Press & Wolf 2017), as the GPT's: the output projection is wte itself.
  lm_head->weight = lm_head->replace_parameter("weight", wte->weight);
  nn::init::normal_(wte->weight, 0.0, 0.02);
}

// idx [B, N], targets [B, N] -> logits [B, N, V] and the mean cross-entropy; without
// targets, logits [B, 1, V] of the last position
ElitaLM::Output ElitaLM::forward(const Tensor& idx, const Tensor& targets) {
  ATTIC_CHECK(idx.defined() && idx.dim() == 2 && idx.dtype() == kInt64 && idx.size(1) >= 1,
              "ElitaLM: idx must be an int64 tensor [B, N] with N >= 1, got ",
              idx.defined() ? str(idx.shape()) : std::string("undefined"));
  Tensor x = drop->forward(wte->forward(idx));  // [B, N, W]
  for (size_t i = 0; i < h->size(); ++i) x = h->at<Block>(i)->forward(x);
  x = parameter_free_layer_norm(x);
  Output out;
  if (targets.defined()) {
    ATTIC_CHECK(targets.shape() == idx.shape(), "ElitaLM: targets ", str(targets.shape()),
                " must have idx's shape ", str(idx.shape()));
    out.logits = lm_head->forward(x);  // [B, N, V]
    out.loss = cross_entropy(out.logits.view({-1, config.vocab_size}), targets.reshape({-1}), -1);
  } else {
    out.logits = lm_head->forward(x.narrow(1, x.size(1) - 1, 1));  // [B, 1, V]
  }
  return out;
}

// One Attention2 state per block, or nullopt under relative positions
std::optional<ElitaLM::DecodeState> ElitaLM::start_decoding() const {
  std::vector<const nn::CausalMixer*> mixers;
  for (size_t i = 0; i < h->size(); ++i) mixers.push_back(h->at<Block>(i)->attn.get());
  return models::start_decoding(mixers);
}

// idx [B, t] -> [B, 1, V]
Tensor ElitaLM::step(DecodeState& state, const Tensor& idx) {
  const int64_t t = idx.size(1), L = state.length;
  ATTIC_CHECK(t >= 1 && L + t <= config.block_size, "ElitaLM::step: ", L, " tokens seen and ", t,
              " more exceed block_size ", config.block_size);
  Tensor x = drop->forward(wte->forward(idx));  // [B, t, W]
  for (size_t i = 0; i < h->size(); ++i) x = h->at<Block>(i)->step(*state.layers[i], x);
  state.length = L + t;
  return lm_head->forward(parameter_free_layer_norm(x.narrow(1, t - 1, 1)));  // [B, 1, V]
}

// idx [B, T0] -> [B, T0 + max_new_tokens]
Tensor ElitaLM::generate(const Tensor& idx, int64_t max_new_tokens, double temperature,
                         int64_t top_k, Generator* gen, bool use_cache) {
  return generate_incremental(*this, idx, max_new_tokens, config.block_size, config.vocab_size,
                              temperature, top_k, gen ? *gen : default_generator(), use_cache);
}

}  // namespace attic::models::elita
