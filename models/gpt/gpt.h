// nanoGPT's GPT (Karpathy, model.py), module for module, so that parameter names match
// (transformer.wte.weight, transformer.h.0.attn.c_attn.weight, lm_head.weight, ...) and a
// checkpoint moves between attic and nanoGPT's PyTorch model.
//
//   x = drop(wte[idx] + wpe[0..T-1])
//   x = h.N(... h.0(x))            N pre-LN blocks; block i also sees x_0 .. x_{i−1}, the
//                                  inputs of the blocks before it (nn::MixerContext)
//   logits = ln_f(x) @ wteᵀ        lm_head shares wte's weight (weight tying)
#pragma once

#include <optional>

#include "models/gpt/block.h"
#include "models/language_model.h"
#include "models/sampling.h"
#include "tensor/random.h"

namespace attic::models {

class GPT : public LanguageModel {
 public:
  // Builds and initializes: Linear and Embedding weights ~ N(0, 0.02), biases 0, LayerNorm
  // weights 1; every c_proj.weight (the residual projections) ~ N(0, 0.02/√(2·n_layer)),
  // GPT-2's scaled init.
  explicit GPT(const GPTConfig& cfg);

  struct Output {
    Tensor logits;  // [B, T, V], or [B, 1, V] (last position only) without targets
    Tensor loss;    // 0-d mean cross-entropy; undefined without targets
  };
  // idx [B, T] int64 token ids, T <= block_size; targets [B, T] int64 (-1 = ignore).
  Output forward(const Tensor& idx, const Tensor& targets = Tensor());
  // x, y [B, T] -> forward(x, y).loss
  Tensor loss(const Tensor& x, const Tensor& y) override { return forward(x, y).loss; }

  // idx [B, T] -> every block's output, n_layer tensors [B, T, C] in order: the residual
  // stream after block i, before ln_f (what representation analyses read).
  std::vector<Tensor> block_outputs(const Tensor& idx);

  // Appends max_new_tokens tokens to idx [B, T0]: crop the context to block_size, divide the
  // last logits by temperature, keep the top_k largest (0 = all), softmax, draw one.
  // temperature 0 means greedy (argmax). Runs without a graph and in eval mode.
  // use_cache: feed each new token alone through the attentions' step states (a KV cache
  // for softmax, the RNN state for linear attention) while the text fits in block_size;
  // the tokens drawn are the same as without it. Once the text is longer, the window
  // slides, every position's wpe changes, and each token recomputes its whole context, as
  // nanoGPT does for every token.
  Tensor generate(const Tensor& idx, int64_t max_new_tokens, double temperature = 1.0,
                  int64_t top_k = 0, Generator* gen = nullptr, bool use_cache = true) override;

  // Incremental decoding: one step state per block and the tokens seen so far.
  using DecodeState = models::DecodeState;
  // A fresh state, or nullopt when some block's attention has no step state.
  std::optional<DecodeState> start_decoding() const;
  // idx [B, t]: the t tokens after the state.length already seen (state.length + t <=
  // block_size) -> logits [B, 1, V] of the last one, equal to forward() on the whole text.
  Tensor step(DecodeState& state, const Tensor& idx);

  // Parameter count as nanoGPT reports it: wpe excluded, the tied wte counted once.
  int64_t num_params_non_embedding() const;
  int64_t reported_params() const override { return num_params_non_embedding(); }

  GPTConfig config;
  std::shared_ptr<nn::Module> transformer;  // children: wte, wpe, drop, h, ln_f
  std::shared_ptr<nn::Embedding> wte, wpe;
  std::shared_ptr<nn::Dropout> drop;
  std::shared_ptr<nn::ModuleList> h;
  std::shared_ptr<nn::LayerNorm> ln_f;
  std::shared_ptr<nn::Linear> lm_head;

 private:
  Tensor blocks_forward(const Tensor& idx, std::vector<Tensor>* outputs);
  // Whether any block's attention reads the earlier blocks' inputs (nn::MixerContext).
  bool reads_earlier() const;
};

}  // namespace attic::models
