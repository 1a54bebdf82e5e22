// Chapter 11's exercise: the GPT's forward written again from its modules, and nanoGPT's
// parameter count by formula. Sizes: B sequences, T positions, C = n_embd, V = vocab_size.
#pragma once

#include "models/gpt.h"

// x [B, T, C] -> [B, T, C]: c_proj(gelu(c_fc(x))), then dropout (nanoGPT's MLP).
attic::Tensor my_mlp_forward(attic::models::MLP& mlp, const attic::Tensor& x);

// x [B, T, C] -> [B, T, C]: the pre-LN block (nanoGPT's Block)
//   h = x + attn(ln_1(x))
//   y = h + mlp(ln_2(h))        with my_mlp_forward for the MLP.
attic::Tensor my_block_forward(attic::models::Block& block, const attic::Tensor& x);

// idx [B, T] int64 -> logits [B, T, V] at every position (what GPT::forward returns when it
// is given targets):
//   x = drop(wte(idx) + wpe(0..T-1))      [B, T, C]
//   x = my_block_forward(h.i, x)          for i = 0 .. n_layer-1
//   logits = lm_head(ln_f(x))             [B, T, V]
attic::Tensor my_gpt_logits(attic::models::GPT& model, const attic::Tensor& idx);

// The number nanoGPT prints as "number of parameters" (GPT.get_num_params): every parameter
// once (lm_head.weight is wte.weight), wpe left out; biases in every Linear and LayerNorm
// when cfg.bias. Uses only n_layer, n_embd, vocab_size and bias.
int64_t gpt_num_params(const attic::models::GPTConfig& cfg);
