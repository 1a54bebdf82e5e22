// Chapter 11's exercise: write the GPT's forward from its modules, and count its parameters.
// Build and check it with `make exercise N=11`; the solution is in solution/gpt_forward.cpp.
#include "gpt_forward.h"

#include <stdexcept>

using namespace attic;

// x [B, T, C] -> [B, T, C]
Tensor my_mlp_forward(models::MLP& mlp, const Tensor& x) {
  // TODO: mlp.c_fc, gelu, mlp.c_proj, mlp.dropout: each module has forward(tensor).
  (void)mlp;
  (void)x;
  throw std::logic_error("TODO: my_mlp_forward is not written yet");
}

// x [B, T, C] -> [B, T, C]
Tensor my_block_forward(models::Block& block, const Tensor& x) {
  // TODO: two residual sums. block.ln_1, block.ln_2 and block.attn have forward(tensor);
  //       use my_mlp_forward(*block.mlp, ...) for the MLP.
  (void)block;
  (void)x;
  throw std::logic_error("TODO: my_block_forward is not written yet");
}

// idx [B, T] int64 -> [B, T, V]
Tensor my_gpt_logits(models::GPT& model, const Tensor& idx) {
  // TODO 1: the positions 0..T-1 as an int64 tensor: arange(0, T, 1, TensorOptions(kInt64)).
  // TODO 2: x = model.drop(model.wte(idx) + model.wpe(pos)) (modules, called with ->forward).
  // TODO 3: each block in turn: model.h->size() blocks, model.h->at<models::Block>(i).
  // TODO 4: model.ln_f, then model.lm_head.
  (void)model;
  (void)idx;
  throw std::logic_error("TODO: my_gpt_logits is not written yet");
}

int64_t gpt_num_params(const models::GPTConfig& cfg) {
  // TODO: add up the sizes of the parameters of 11.1's list: per block ln_1, attn.c_attn,
  //       attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj (weights, and biases when cfg.bias); then
  //       ln_f and wte. Leave wpe out, and count lm_head.weight zero times: it is wte.weight.
  (void)cfg;
  return 0;
}
