// Drawing the next token from logits (nanoGPT's sample.py rule), for GPT::generate and the
// pooled LM alike.
#pragma once

#include <functional>
#include <optional>

#include "nn/attention/causal_mixer.h"
#include "nn/module.h"
#include "ops/ops.h"

namespace attic::models {

// What a model carries through incremental decoding (GPT::step, ElitaLM::step): one step
// state per block and the number of tokens seen.
struct DecodeState {
  std::vector<std::unique_ptr<nn::MixerState>> layers;
  int64_t length = 0;
};
// A fresh state with one entry per block's mixer, or nullopt when some mixer has none.
std::optional<DecodeState> start_decoding(const std::vector<const nn::CausalMixer*>& mixers);

// logits [B, V] -> [B, 1] int64: divide by temperature, keep the top_k largest (0 = all),
// softmax, draw one per row with gen. temperature 0 picks the argmax.
Tensor sample_next(const Tensor& logits, double temperature, int64_t top_k, Generator& gen);

// The generation loop both language models share: idx [B, T] int64 -> [B, T + n]. Each
// step crops the sequence to its last `context` tokens, asks next_logits for the logits
// [B, V] of the next token, draws it with sample_next and appends it. model runs in eval
// mode meanwhile (no dropout), without autograd, and gets its mode back afterwards.
Tensor generate_tokens(nn::Module& model, const Tensor& idx, int64_t n, int64_t context,
                       double temperature,
                       int64_t top_k, Generator& gen,
                       const std::function<Tensor(const Tensor&)>& next_logits);

// generate_tokens for a model that may decode incrementally (GPT, ElitaLM, LinformerLM):
// Model has start_decoding() -> optional<State>, step(State&, idx [B, t]) -> logits
// [B, 1, V], and forward(idx [B, T]).logits -> [B, 1, V], or else gives recompute(idx) -> the
// same logits. With use_cache the prompt goes through step()
// at once and then each new token alone; once the text outgrows block_size the crop moves
// every position, nothing cached holds, and each token recomputes its window, as nanoGPT
// does for every token. Without a state (start_decoding() gives nullopt) it recomputes
// from the start. The tokens drawn are the same either way.
template <class Model>
Tensor generate_incremental(Model& model, const Tensor& idx, int64_t n, int64_t block_size,
                            int64_t vocab_size, double temperature, int64_t top_k, Generator& gen,
                            bool use_cache, std::function<Tensor(const Tensor&)> recompute = nullptr) {
  const int64_t B = idx.size(0);
  std::optional<typename decltype(model.start_decoding())::value_type> state;
  bool started = false, sliding = false;
  // ctx [B, T] (cropped to block_size) -> logits [B, V] of the token after it
  auto next_logits = [&](const Tensor& ctx) {
    const int64_t T = ctx.size(1);
    if (use_cache && !sliding) {
      if (!started) {
        started = true;
        if (auto s = model.start_decoding()) {
          state.emplace(std::move(*s));
          return model.step(*state, ctx).view({B, vocab_size});  // the prompt, all at once
        }
      } else if (state && T == state->length + 1) {
        return model.step(*state, ctx.narrow(1, T - 1, 1)).view({B, vocab_size});  // one token
      } else if (state) {
        sliding = true;  // the crop dropped the first token: every position moved
      }
    }
    if (recompute) return recompute(ctx).view({B, vocab_size});
    if constexpr (requires { model.forward(ctx).logits; })
      return model.forward(ctx).logits.view({B, vocab_size});  // the last position only
    fail("generate_incremental: the model needs forward(idx).logits or a recompute function");
  };
  return generate_tokens(model, idx, n, block_size, temperature, top_k, gen, next_logits);
}

}  // namespace attic::models
