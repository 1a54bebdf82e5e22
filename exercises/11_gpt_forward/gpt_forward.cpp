// Chapter 11's exercise: write the GPT's forward from its modules, and count its parameters.
// Build and check it with `make exercise N=11`; the solution is in solution/gpt_forward.cpp.
#include "gpt_forward.h"

#include <stdexcept>

using namespace attic;

// x [B, T, C] -> [B, T, C]
Tensor my_mlp_forward(models::MLP& mlp, const Tensor& x) {
  // TODO: c_proj(gelu(c_fc(x))), then dropout (gpt_forward.h).
  (void)mlp;
  (void)x;
  throw std::logic_error("TODO: my_mlp_forward is not written yet");
}

// x [B, T, C] -> [B, T, C]
Tensor my_block_forward(models::Block& block, const Tensor& x) {
  // TODO: h = x + attn(ln_1(x)), y = h + mlp(ln_2(h)), the MLP through my_mlp_forward
  //       (gpt_forward.h).
  (void)block;
  (void)x;
  throw std::logic_error("TODO: my_block_forward is not written yet");
}

// idx [B, T] int64 -> [B, T, V]
Tensor my_gpt_logits(models::GPT& model, const Tensor& idx) {
  // TODO: the logits [B, T, V] that GPT::forward returns when given targets, every block
  //       through my_block_forward (gpt_forward.h).
  (void)model;
  (void)idx;
  throw std::logic_error("TODO: my_gpt_logits is not written yet");
}

int64_t gpt_num_params(const models::GPTConfig& cfg) {
  // TODO: nanoGPT's count as a formula of n_layer, n_embd, vocab_size and bias: every
  //       parameter once (lm_head.weight is wte.weight), wpe left out (gpt_forward.h).
  (void)cfg;
  return 0;
}
