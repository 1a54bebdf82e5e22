// Drawing the next token from logits (nanoGPT's sample.py rule), for GPT::generate and the
// pooled LM alike.
#pragma once

#include "tensor/ops.h"

namespace attic::models {

// logits [B, V] -> [B, 1] int64: divide by temperature, keep the top_k largest (0 = all),
// softmax, draw one per row with gen. temperature 0 picks the argmax.
Tensor sample_next(const Tensor& logits, double temperature, int64_t top_k, Generator& gen);

}  // namespace attic::models
