// The Set Transformer's Set Attention Block: SAB(X) = MAB(X, X), self-attention over a set.
// Permutation-equivariant: permuting the rows of X permutes the rows of the output. O(n²).
#pragma once

#include "nn/blocks/mab.h"

namespace attic::nn {

class SAB : public Module {
 public:
  SAB(int64_t dim, int64_t num_heads, const AttentionFactory& attention = make_softmax_attention,
      bool norm = true)
      : mab(register_module("mab", std::make_shared<MAB>(dim, dim, num_heads, attention, norm))) {}
  // x [B, N, dim], keep [B, N] -> [B, N, dim]
  Tensor forward(const Tensor& x, const Tensor& keep = Tensor()) { return mab->forward(x, x, keep); }

  std::shared_ptr<MAB> mab;
};

}  // namespace attic::nn
