// The WikiText-2 language model with attention pooling of tonyduan/transformer-blocks
// ("BERTLanguageModel", src/models.py at commit 01581ee), here on characters: a window of
// L tokens predicts the single token after it.
//
//   x = PE(wte[idx])                       [B, L, d]   (sinusoids, max_length = L, dropout)
//   x = blocks(x)                          N pre-ScaleNorm EncoderBlocks, no mask: inside the
//                                          window the model is bidirectional, which is legal
//                                          because only the token after the window is predicted
//   pooled = PMA_1(x).squeeze(1)           [B, d]      one seed vector attends to the window
//   logits = head(pooled)                  [B, V]
//
// Every attention (blocks and pooling) is the q, k, v form of config.attention, one of the
// registered attentions that have one (models/registry.h).
#pragma once

#include "models/language_model.h"
#include "models/transformer/config.h"
#include "nn/attention/positional_encoding.h"
#include "nn/blocks/encoder_block.h"
#include "nn/blocks/pma.h"
#include "nn/container.h"
#include "nn/embedding.h"
#include "tensor/random.h"

namespace attic::models {

class PooledLM : public LanguageModel {
 public:
  explicit PooledLM(const PooledLMConfig& cfg);

  struct Output {
    Tensor logits;  // [B, V]
    Tensor loss;    // 0-d mean cross-entropy; undefined without targets
  };
  // idx [B, T] int64, T <= L (training uses T = L); targets [B] int64, the token after
  // each window. squeeze(1), not squeeze(): src/models.py's squeeze() also drops B when B = 1.
  Output forward(const Tensor& idx, const Tensor& targets = Tensor());
  // x, y [B, L] from get_batch: y's last column, the token after x's window, is the target.
  Tensor loss(const Tensor& x, const Tensor& y) override;

  // Appends max_new_tokens tokens to idx [B, T0], each predicted from the last L tokens
  // (fewer at the start): temperature (0: greedy), top_k (0: all). No graph, eval mode.
  // use_cache changes nothing: the window is attended both ways, so a new token changes
  // every position and there is no state to carry.
  Tensor generate(const Tensor& idx, int64_t max_new_tokens, double temperature = 1.0,
                  int64_t top_k = 0, Generator* gen = nullptr, bool use_cache = true) override;

  PooledLMConfig config;
  std::shared_ptr<nn::Embedding> wte;
  std::shared_ptr<nn::PositionalEncoding> pos;
  std::shared_ptr<nn::ModuleList> blocks;
  std::shared_ptr<nn::PMA> pool;
  std::shared_ptr<nn::Linear> head;
};

}  // namespace attic::models
