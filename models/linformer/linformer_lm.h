// The Linformer language model: LinformerLM of the linformer-pytorch package.
//
//   x = dropout_tokens(to_token_emb[idx] + pe)        idx [B, n] -> [B, n, E]
//   x = linformer(x)                                  the stack (models/linformer/linformer.h),
//                                                     between project_in/out when E ≠ C
//   logits = to_logits(x)                             [B, n, V], untied; skipped by return_emb
//
// Names as the package's state dict: to_token_emb.weight, pos_emb.inv_freq,
// linformer.seq.{i}.* (linformer.fn.seq.{i}.*, linformer.project_in.*, linformer.project_out.*
// when E ≠ C), to_logits.weight, to_logits.bias.
#pragma once

#include <memory>
#include <optional>

#include "models/language_model.h"
#include "models/linformer/linformer.h"
#include "models/linformer/positional_embedding.h"
#include "models/sampling.h"
#include "nn/embedding.h"
#include "tensor/random.h"

namespace attic::models::linformer {

// ProjectInOut of the package (after lucidrains/sinkhorn-transformer): the stack at width C
// inside a model of width E.
class ProjectInOut : public nn::Module {
 public:
  ProjectInOut(std::shared_ptr<Linformer> fn, int64_t dim_in, int64_t dim_out);
  Tensor forward(const Tensor& x, const LayerArgs& args);  // [B, n, E] -> [B, n, E]

  std::shared_ptr<Linformer> fn;
  std::shared_ptr<nn::Linear> project_in, project_out;
};

class LinformerLM : public LanguageModel {
 public:
  explicit LinformerLM(const LinformerLMOptions& options);

  // idx [B, n] int64 with exactly n = input_size -> [B, n, V] (or [B, n, E] with return_emb).
  Tensor forward(const Tensor& idx, const LayerArgs& args = {});

  // The language-model loss attic train uses: causal or not, the cross-entropy of logits at
  // every position against targets [B, n] (−1 = ignore).
  Tensor loss(const Tensor& idx, const Tensor& targets) override;

  // Appends max_new_tokens tokens to idx [B, T0], nanoGPT's rule (temperature, top_k). The
  // model reads exactly n positions: the context is the last n tokens, zero-padded at the end
  // when shorter (the package's Padder) and read at its last real position. Only a causal
  // model gives the distribution it was trained for; a leaky one sees the padding.
  // use_cache: under causal=prefix every attention carries its slots (LinformerAttention::State)
  // and a token costs O(k d) per layer; the tokens drawn are the same either way.
  Tensor generate(const Tensor& idx, int64_t max_new_tokens, double temperature = 1.0, int64_t top_k = 0,
                  Generator* gen = nullptr, bool use_cache = true) override;

  using DecodeState = models::DecodeState;
  // A fresh state (one entry per attention layer), or nullopt unless causal=prefix.
  std::optional<DecodeState> start_decoding() const;
  // idx [B, t]: the t tokens after state.length -> logits [B, 1, V] of the last one, equal to
  // forward() over the whole text (padded to n) at that position.
  Tensor step(DecodeState& state, const Tensor& idx);
  // The logits [B, 1, V] after ctx [B, T ≤ n]: forward over ctx zero-padded to n, at T − 1.
  Tensor last_logits(const Tensor& ctx);

  Linformer& stack() const { return linformer ? *linformer : *projected->fn; }

  LinformerLMOptions options;
  std::shared_ptr<nn::Embedding> to_token_emb;
  std::shared_ptr<PositionalEmbedding> pos_emb;
  std::shared_ptr<nn::Dropout> dropout_tokens;
  std::shared_ptr<Linformer> linformer;     // when E == C
  std::shared_ptr<ProjectInOut> projected;  // when E ≠ C (registered as "linformer")
  std::shared_ptr<nn::Linear> to_logits;    // null with return_emb
};

}  // namespace attic::models::linformer
