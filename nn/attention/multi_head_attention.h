// MultiHeadAttention of tonyduan/transformer-blocks (src/blocks.py; Vaswani et al. 2017):
//   q' = fc_q(q) [B, Tq, dim_a], k' = fc_k(k) [B, Tk, dim_a], v' = fc_v(v) [B, Tk, dim_o]
//   per head h: O_h = softmax(q'_h k'_hᵀ · scale) v'_h
//   out = fc_o([O_1 … O_NH])                                [B, Tq, dim_o]
// Weights xavier_normal, biases 0 (its init).
#pragma once

#include "nn/attention/attention.h"
#include "nn/linear.h"

namespace attic::nn {

class MultiHeadAttention : public Attention {
 public:
  explicit MultiHeadAttention(const AttentionOptions& options);
  Tensor forward(const Tensor& q, const Tensor& k, const Tensor& v,
                 const Tensor& keep = Tensor(), bool causal = false) override;
  std::string name() const override { return "softmax"; }

  std::shared_ptr<Linear> fc_q, fc_k, fc_v, fc_o;
  AttentionOptions options;
  double scale;             // 1/√(dim_a/NH) by default, 1/√dim_a with scale_by_total_width
  bool record_weights = false;
  Tensor last_weights;      // [B, NH, Tq, Tk] of the last forward, when record_weights
};

// The default AttentionFactory of every block: a MultiHeadAttention.
std::shared_ptr<Attention> make_softmax_attention(const AttentionOptions& options);

}  // namespace attic::nn
