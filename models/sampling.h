// Drawing the next token from logits (nanoGPT's sample.py rule), for GPT::generate and the
// pooled LM alike.
#pragma once

#include <functional>

#include "nn/module.h"
#include "ops/ops.h"

namespace attic::models {

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

}  // namespace attic::models
