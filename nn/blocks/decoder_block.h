// The pre-ScaleNorm Transformer decoder block of tonyduan/transformer-blocks (DecoderBlock,
// src/blocks.py; Vaswani et al. 2017): causal self-attention, then
// cross-attention to a memory (the encoder's output, of its own width memory_dim, not
// normalized), then the feed-forward:
//   x ← x + drop(SelfAttn(SN1(x), SN1(x), SN1(x), keep_self, causal))
//   x ← x + drop(CrossAttn(SN2(x), mem, mem, keep_mem))
//   x ← x + drop(FFN(SN3(x)))
#pragma once

#include "nn/attention/feed_forward.h"
#include "nn/attention/scale_norm.h"
#include "nn/blocks/block_options.h"
#include "nn/dropout.h"

namespace attic::nn {

class DecoderBlock : public Module {
 public:
  explicit DecoderBlock(const BlockOptions& options);
  // x [B, T, dim], memory [B, S, memory_dim], keep_self [B, T] or [B, T, T],
  // keep_memory [B, S] or [B, T, S] -> [B, T, dim]
  Tensor forward(const Tensor& x, const Tensor& memory, const Tensor& keep_self = Tensor(),
                 const Tensor& keep_memory = Tensor(), bool causal = true);

  std::shared_ptr<Attention> self_attn, cross_attn;
  std::shared_ptr<FeedForward> ffn;
  std::shared_ptr<ScaleNorm> sn1, sn2, sn3;
  std::shared_ptr<Dropout> drop;
};

}  // namespace attic::nn
