// The Perceiver IO cross-attention block (Jaegle et al. 2022; CrossAttentionBlock of
// tonyduan/transformer-blocks, src/blocks.py): the decoder block without self-attention.
// A small array of latents x reads a large input array (the memory) at a cost linear in
// its length:
//   x ← x + drop(Attn(SN1(x), mem, mem, keep_mem))
//   x ← x + drop(FFN(SN2(x)))
#pragma once

#include "nn/attention/feed_forward.h"
#include "nn/attention/scale_norm.h"
#include "nn/blocks/block_options.h"
#include "nn/dropout.h"

namespace attic::nn {

class CrossAttentionBlock : public Module {
 public:
  explicit CrossAttentionBlock(const BlockOptions& options);
  // x [B, N, dim], memory [B, M, memory_dim], keep_memory [B, M] or [B, N, M] -> [B, N, dim]
  Tensor forward(const Tensor& x, const Tensor& memory, const Tensor& keep_memory = Tensor());

  std::shared_ptr<Attention> attn;
  std::shared_ptr<FeedForward> ffn;
  std::shared_ptr<ScaleNorm> sn1, sn2;
  std::shared_ptr<Dropout> drop;
};

}  // namespace attic::nn
