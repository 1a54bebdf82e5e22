#include "nn/blocks/decoder_block.h"


namespace attic::nn {

DecoderBlock::DecoderBlock(const BlockOptions& o) {
  ATTIC_CHECK(o.dim > 0, "DecoderBlock: dim must be positive, got ", o.dim);
  self_attn = register_module("self_attn", o.attention(o.attention_options(o.dim)));
  cross_attn = register_module("cross_attn", o.attention(o.attention_options(o.mem())));
  ffn = register_module("ffn", std::make_shared<FeedForward>(o.dim, o.ffn_hidden(), o.dropout));
  sn1 = register_module("sn1", std::make_shared<ScaleNorm>(o.dim));
  sn2 = register_module("sn2", std::make_shared<ScaleNorm>(o.dim));
  sn3 = register_module("sn3", std::make_shared<ScaleNorm>(o.dim));
  drop = register_module("drop", std::make_shared<Dropout>(o.dropout));
}

// x [B, T, dim], memory [B, S, memory_dim] -> [B, T, dim]
Tensor DecoderBlock::forward(const Tensor& x, const Tensor& memory, const Tensor& keep_self,
                             const Tensor& keep_memory, bool causal) {
  Tensor h = sn1->forward(x);
  Tensor y = x + drop->forward(self_attn->forward(h, h, h, keep_self, causal));
  y = y + drop->forward(cross_attn->forward(sn2->forward(y), memory, memory, keep_memory));
  return y + drop->forward(ffn->forward(sn3->forward(y)));
}

}  // namespace attic::nn
