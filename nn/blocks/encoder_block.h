// The pre-ScaleNorm Transformer encoder block of tonyduan/transformer-blocks (EncoderBlock,
// src/blocks.py; Vaswani et al. 2017 with Nguyen & Salazar 2019's pre-norm placement):
//   x ← x + drop(Attn(SN1(x), SN1(x), SN1(x), keep))
//   x ← x + drop(FFN(SN2(x)))
// Attn is softmax or linear attention (BlockOptions::attention).
#pragma once

#include "nn/attention/feed_forward.h"
#include "nn/attention/scale_norm.h"
#include "nn/blocks/block_options.h"
#include "nn/dropout.h"

namespace attic::nn {

class EncoderBlock : public Module {
 public:
  explicit EncoderBlock(const BlockOptions& options);
  // x [B, T, dim], keep undefined / [B, T] / [B, T, T] -> [B, T, dim]
  Tensor forward(const Tensor& x, const Tensor& keep = Tensor(), bool causal = false);

  std::shared_ptr<Attention> attn;
  std::shared_ptr<FeedForward> ffn;
  std::shared_ptr<ScaleNorm> sn1, sn2;
  std::shared_ptr<Dropout> drop;
};

}  // namespace attic::nn
