// The ELiTA language model: the original's Model2 stack (acosharma/elita-transformer,
// main.py) between a token embedding and a tied output head, as nanoGPT frames its GPT:
//
//   x = drop(wte[idx])                 no position embedding: Attention2 has its own π
//   x = h.L−1(... h.0(x))              pre-norm ELiTA blocks (models/elita/block.h)
//   logits = LN(x) @ wteᵀ              LN without parameters, eps 1e-3; lm_head = wte
//
// Parameter names: transformer.wte.weight, transformer.h.{i}.attn.{k1, ..., output_weight},
// transformer.h.{i}.ff.{w1, w2, w3, b1, b2, b3}, lm_head.weight (tied). Inside attn and ff
// they are the original's Keras weight names and shapes, so weights copy one to one.
#pragma once

#include <optional>

#include "models/elita/block.h"
#include "models/elita/config.h"
#include "models/language_model.h"
#include "nn/container.h"
#include "nn/embedding.h"
#include "nn/linear.h"
#include "models/sampling.h"
#include "tensor/random.h"

namespace attic::models::elita {

class ElitaLM : public LanguageModel {
 public:
  // wte ~ N(0, 0.02), as nanoGPT's embedding; the blocks keep Keras's init.
  explicit ElitaLM(const ElitaConfig& cfg);

  struct Output {
    Tensor logits;  // [B, N, V], or [B, 1, V] (last position only) without targets
    Tensor loss;    // 0-d mean cross-entropy; undefined without targets
  };
  // idx [B, N] int64, N >= 1 (any N: relative positions stretch over it); targets [B, N]
  // int64 (-1 = ignore).
  Output forward(const Tensor& idx, const Tensor& targets = Tensor());
  // x, y [B, N] -> forward(x, y).loss
  Tensor loss(const Tensor& x, const Tensor& y) override { return forward(x, y).loss; }

  // Appends max_new_tokens tokens to idx [B, T0], nanoGPT's rule (crop to block_size,
  // temperature, top_k). use_cache: with absolute positions each block carries its
  // Attention2 state and a token costs O(1) in the length of the text; with relative
  // positions every t_i moves when a token arrives, so each token recomputes its context,
  // as the original must. The tokens drawn are the same either way.
  Tensor generate(const Tensor& idx, int64_t max_new_tokens, double temperature = 1.0,
                  int64_t top_k = 0, Generator* gen = nullptr, bool use_cache = true) override;

  using DecodeState = models::DecodeState;
  // A fresh state, or nullopt under relative positions.
  std::optional<DecodeState> start_decoding() const;
  // idx [B, t]: the t tokens after state.length (state.length + t <= block_size) -> logits
  // [B, 1, V] of the last one, equal to forward() on the whole text.
  Tensor step(DecodeState& state, const Tensor& idx);

  // configure_optimizers (LanguageModel's): matrices and embeddings decay, vectors do not,
  // and neither do Attention2's position vectors a1, a2, b1, b2, c, stored as [H, P, 1]
  // (Attention2::no_weight_decay). The keys k1, k2, k3 [H, W] decay.

  ElitaConfig config;
  std::shared_ptr<nn::Module> transformer;  // children: wte, drop, h
  std::shared_ptr<nn::Embedding> wte;
  std::shared_ptr<nn::Dropout> drop;
  std::shared_ptr<nn::ModuleList> h;
  std::shared_ptr<nn::Linear> lm_head;
};

}  // namespace attic::models::elita
