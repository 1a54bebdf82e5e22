// The Set Transformer's Induced Set Attention Block: m learned inducing points I [m, dim]
// first attend to the set, then the set attends to what they gathered:
//   H = MAB1(I, X)   [B, m, dim]        out = MAB2(X, H)   [B, N, dim]
// O(n·m) instead of SAB's O(n²), and still permutation-equivariant. (The ISAB of
// tonyduan/transformer-blocks from commit b4af92e on, InducedPointsEncoderBlock in
// src/blocks.py, passes num_heads and dropout into the wrong slots; this is the intended
// block.)
#pragma once

#include "nn/blocks/mab.h"

namespace attic::nn {

class ISAB : public Module {
 public:
  ISAB(int64_t dim, int64_t num_points, int64_t num_heads,
       const AttentionFactory& attention = make_softmax_attention, bool norm = true);
  // x [B, N, dim], keep [B, N] (padding of the set) -> [B, N, dim]
  Tensor forward(const Tensor& x, const Tensor& keep = Tensor());

  Tensor inducing;  // I [m, dim], xavier_normal
  std::shared_ptr<MAB> mab1, mab2;
};

}  // namespace attic::nn
