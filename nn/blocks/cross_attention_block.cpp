#include "nn/blocks/cross_attention_block.h"


namespace attic::nn {

CrossAttentionBlock::CrossAttentionBlock(const BlockOptions& o) {
  ATTIC_CHECK(o.dim > 0, "CrossAttentionBlock: dim must be positive, got ", o.dim);
  attn = register_module("attn", o.attention(o.attention_options(o.mem())));
  ffn = register_module("ffn", std::make_shared<FeedForward>(o.dim, o.ffn_hidden(), o.dropout));
  sn1 = register_module("sn1", std::make_shared<ScaleNorm>(o.dim));
  sn2 = register_module("sn2", std::make_shared<ScaleNorm>(o.dim));
  drop = register_module("drop", std::make_shared<Dropout>(o.dropout));
}

// x [B, N, dim], memory [B, M, memory_dim] -> [B, N, dim]
Tensor CrossAttentionBlock::forward(const Tensor& x, const Tensor& memory, const Tensor& keep_memory) {
  Tensor y = x + drop->forward(attn->forward(sn1->forward(x), memory, memory, keep_memory));
  return y + drop->forward(ffn->forward(sn2->forward(y)));
}

}  // namespace attic::nn
