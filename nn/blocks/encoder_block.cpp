#include "nn/blocks/encoder_block.h"


namespace attic::nn {

EncoderBlock::EncoderBlock(const BlockOptions& o) {
  ATTIC_CHECK(o.dim > 0, "EncoderBlock: dim must be positive, got ", o.dim);
  attn = register_module("attn", o.attention(o.attention_options(o.dim)));
  ffn = register_module("ffn", std::make_shared<FeedForward>(o.dim, o.ffn_hidden(), o.dropout));
  sn1 = register_module("sn1", std::make_shared<ScaleNorm>(o.dim));
  sn2 = register_module("sn2", std::make_shared<ScaleNorm>(o.dim));
  drop = register_module("drop", std::make_shared<Dropout>(o.dropout));
}

// x [B, T, dim] -> [B, T, dim]
Tensor EncoderBlock::forward(const Tensor& x, const Tensor& keep, bool causal) {
  Tensor h = sn1->forward(x);
  Tensor y = x + drop->forward(attn->forward(h, h, h, keep, causal));
  return y + drop->forward(ffn->forward(sn2->forward(y)));
}

}  // namespace attic::nn
