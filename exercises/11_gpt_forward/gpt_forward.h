// Chapter 11's exercise: a GPT whose blocks run the attention and the MLP side by side (the
// "parallel" block of GPT-J and PaLM), written from models::GPT's own modules, and nanoGPT's
// parameter count by formula. Sizes: B sequences, T positions, C = n_embd, V = vocab_size.
#pragma once

#include "models/gpt.h"

// x [B, T, C] -> [B, T, C]: the parallel block. Both sublayers read the same normalized
// copy of x, and both outputs join the stream at once:
//   y = x + attn(ln_1(x)) + mlp(ln_1(x))
// where nanoGPT's block computes h = x + attn(ln_1(x)), y = h + mlp(ln_2(h)). block.ln_2 is
// not used.
attic::Tensor parallel_block_forward(attic::models::Block& block, const attic::Tensor& x);

// idx [B, T] int64 -> logits [B, T, V] at every position: what GPT::forward returns when it
// is given targets, with every block computed by parallel_block_forward.
attic::Tensor parallel_gpt_logits(attic::models::GPT& model, const attic::Tensor& idx);

// The number nanoGPT prints as "number of parameters" (GPT.get_num_params): every parameter
// once (lm_head.weight is wte.weight), wpe left out, with or without biases (cfg.bias).
// Uses only n_layer, n_embd, vocab_size and bias.
int64_t gpt_num_params(const attic::models::GPTConfig& cfg);
