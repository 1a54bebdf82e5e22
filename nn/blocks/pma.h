// The Set Transformer's Pooling by Multihead Attention: k learned seed vectors S [k, dim]
// attend to the set, PMA(X) = MAB(S, X) [B, k, dim]. Permutation-invariant: the output does
// not change when the rows of X are permuted. With k = 1 it pools a set (or a window of
// tokens, as the pooled LM does) into one vector.
#pragma once

#include "nn/blocks/mab.h"

namespace attic::nn {

class PMA : public Module {
 public:
  PMA(int64_t dim, int64_t num_seeds, int64_t num_heads,
      const AttentionFactory& attention = make_softmax_attention, bool norm = true);
  // x [B, N, dim], keep [B, N] -> [B, k, dim]
  Tensor forward(const Tensor& x, const Tensor& keep = Tensor());

  Tensor seeds;  // S [k, dim], xavier_normal
  std::shared_ptr<MAB> mab;
};

}  // namespace attic::nn
