// The Set Transformer's Multihead Attention Block (Lee et al. 2019), as
// tonyduan/transformer-blocks builds it (MAB, src/blocks.py at commit 01581ee):
//   H   = Q + Attn(SN_q(Q), SN_kv(X), SN_kv(X), keep)       (attention dropout 0)
//   out = H + fc(SN_h(H))                                     fc: Linear(dim, dim)
// fc has no ReLU (as in that code; Lee et al.'s rFF has one), kaiming_normal with fan_out,
// bias 0. That MAB has no norms (SN = identity); its README promises "a pre-normalization
// scheme with ScaleNorm throughout", so norms are on by default here: the
// documented intent. norm = false gives that code's block.
#pragma once

#include "nn/attention/scale_norm.h"
#include "nn/blocks/block_options.h"
#include "nn/linear.h"

namespace attic::nn {

class MAB : public Module {
 public:
  // queries of width dim, set elements of width kv_dim
  MAB(int64_t dim, int64_t kv_dim, int64_t num_heads,
      const AttentionFactory& attention = make_softmax_attention,
      bool norm = true);
  // q [B, N, dim], x [B, M, kv_dim], keep [B, M] or [B, N, M] -> [B, N, dim]
  Tensor forward(const Tensor& q, const Tensor& x, const Tensor& keep = Tensor());

  std::shared_ptr<Attention> attn;
  std::shared_ptr<Linear> fc;
  std::shared_ptr<ScaleNorm> sn_q, sn_kv, sn_h;  // null when norm = false
};

}  // namespace attic::nn
