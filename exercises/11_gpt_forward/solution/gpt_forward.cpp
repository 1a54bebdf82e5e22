// Chapter 11's exercise, solved: a GPT of parallel blocks, and nanoGPT's count.
//
// The chapter's question: why could the check not test nanoGPT's block the same way, as the
// sum of the block with only its attention and the block with only its MLP? And what does the
// parallel block give up by that, and what can it gain?
// Answer: In the parallel block neither sublayer reads the other's output: y − x =
// attn(n) + mlp(n) with n = ln_1(x), and switching one off leaves the other's term as it was.
// In nanoGPT's block the MLP reads ln_2(x + attn(ln_1(x))): switching the attention off
// changes what the MLP sees, so the block's update is not the sum of the two one-sublayer
// updates. What the parallel block gives up is that: its MLP cannot work on what its own
// attention has just gathered; only the next block's MLP can. What it gains, in PaLM's words
// (Chowdhery et al. 2022, section 2, "Parallel Layers"): the input matrix products of the
// attention and the MLP read the same n, so they can be fused into one, which trained about
// 15 % faster at large scale, with a small loss of quality at 8B parameters and none at 62B.
#include "gpt_forward.h"

using namespace attic;

// x [B, T, C] -> [B, T, C]: one LayerNorm, two sublayers on its output, one sum.
Tensor parallel_block_forward(models::Block& block, const Tensor& x) {
  const Tensor n = block.ln_1->forward(x);
  return x + block.attn->forward(n) + block.mlp->forward(n);
}

// idx [B, T] int64 -> [B, T, V]: GPT::blocks_forward and GPT::forward's head, the blocks
// replaced by parallel ones.
Tensor parallel_gpt_logits(models::GPT& model, const Tensor& idx) {
  const int64_t T = idx.size(1);
  Tensor pos = arange(0, double(T), 1, TensorOptions(kInt64));                        // [T]
  Tensor x = model.drop->forward(model.wte->forward(idx) + model.wpe->forward(pos));  // [B, T, C]
  for (size_t i = 0; i < model.h->size(); ++i) x = parallel_block_forward(*model.h->at<models::Block>(i), x);
  return model.lm_head->forward(model.ln_f->forward(x));  // [B, T, V]
}

// Per block: c_attn 3C² (+3C), attn.c_proj C² (+C), c_fc 4C² (+4C), mlp.c_proj 4C² (+C), and
// ln_1, ln_2 C each (2C each with biases); then ln_f and wte [V, C].
int64_t gpt_num_params(const models::GPTConfig& cfg) {
  const int64_t L = cfg.n_layer, C = cfg.n_embd, V = cfg.vocab_size;
  const int64_t ln = cfg.bias ? 2 * C : C;             // one LayerNorm
  const int64_t linear_biases = cfg.bias ? 9 * C : 0;  // 3C + C + 4C + C
  return L * (12 * C * C + linear_biases + 2 * ln) + ln + V * C;
}
