// Chapter 11's exercise, solved: the GPT's forward from its modules, and nanoGPT's count.
//
// The chapter's question: `wte.weight` gets its gradient from two places. Which, and why does the
// check compare this parameter's gradient in particular?
// Answer: The embedding lookup sends gradient to the rows of the characters in `idx`, and
// `lm_head`, which is the same tensor, sends gradient to every row, since every character's score
// enters the loss. The two shares add up in one `.grad`. A model whose tie were broken would still
// compute plausible logits, but its `wte` gradient would lack `lm_head`'s share: the gradient is
// where a broken tie shows.
#include "gpt_forward.h"

using namespace attic;

// x [B, T, C] -> [B, T, C]: c_proj(gelu(c_fc(x))) [B, T, 4C] in between, then dropout.
Tensor my_mlp_forward(models::MLP& mlp, const Tensor& x) {
  return mlp.dropout->forward(mlp.c_proj->forward(gelu(mlp.c_fc->forward(x))));
}

// x [B, T, C] -> [B, T, C]: each sublayer reads a normalized copy and adds to the stream.
Tensor my_block_forward(models::Block& block, const Tensor& x) {
  Tensor h = x + block.attn->forward(block.ln_1->forward(x));
  return h + my_mlp_forward(*block.mlp, block.ln_2->forward(h));
}

// idx [B, T] int64 -> [B, T, V]
Tensor my_gpt_logits(models::GPT& model, const Tensor& idx) {
  const int64_t T = idx.size(1);
  Tensor pos = arange(0, double(T), 1, TensorOptions(kInt64));            // [T]
  Tensor x = model.drop->forward(model.wte->forward(idx) + model.wpe->forward(pos));  // [B, T, C]
  for (size_t i = 0; i < model.h->size(); ++i)
    x = my_block_forward(*model.h->at<models::Block>(i), x);
  return model.lm_head->forward(model.ln_f->forward(x));                  // [B, T, V]
}

// Per block: c_attn 3C² (+3C), attn.c_proj C² (+C), c_fc 4C² (+4C), mlp.c_proj 4C² (+C), and
// ln_1, ln_2 C each (2C each with biases); then ln_f and wte [V, C].
int64_t gpt_num_params(const models::GPTConfig& cfg) {
  const int64_t L = cfg.n_layer, C = cfg.n_embd, V = cfg.vocab_size;
  const int64_t ln = cfg.bias ? 2 * C : C;                // one LayerNorm
  const int64_t linear_biases = cfg.bias ? 9 * C : 0;     // 3C + C + 4C + C
  return L * (12 * C * C + linear_biases + 2 * ln) + ln + V * C;
}
