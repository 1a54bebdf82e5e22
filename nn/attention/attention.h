// The interface the q, k, v attentions of the Transformer blocks share, so that a block
// can hold softmax or linear attention behind one pointer. A block builds its attention
// with an AttentionFactory; models/registry.h makes one from a name.
//
//   auto attn = models::make_attention("linear_elu", {.dim_q = 32, .dim_k = 32, .dim_v = 32});
//   Tensor y = attn->forward(q, k, v, keep);   // keep: bool, true = attend, false = ignore
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "nn/linear.h"
#include "nn/module.h"

namespace attic::nn {

// MultiHeadAttention(dim_q, dim_k, dim_v, num_heads, dropout, dim_a = dim_q, dim_o = dim_q)
// of tonyduan/transformer-blocks (src/blocks.py): q, k project to dim_a, v to dim_o, output
// width dim_o.
// 0 for dim_a or dim_o means "dim_q".
struct AttentionOptions {
  int64_t dim_q = 0, dim_k = 0, dim_v = 0;
  int64_t num_heads = 1;
  double dropout = 0.0;  // on the attention weights (softmax only; linear has no weights)
  int64_t dim_a = 0, dim_o = 0;
  // Softmax only. false: logits · 1/√(dim_a / num_heads), the head width, as its README and
  // Vaswani et al. 2017 say. true: · 1/√dim_a, what its src/blocks.py does at every commit.
  bool scale_by_total_width = false;

  int64_t a() const { return dim_a > 0 ? dim_a : dim_q; }
  int64_t o() const { return dim_o > 0 ? dim_o : dim_q; }
  void validate(const char* who) const;  // throws attic::Error naming who
};

// The four projections of tonyduan/transformer-blocks' attentions, registered on m as fc_q,
// fc_k, fc_v and fc_o: q, k [·, dim_q / dim_k] -> [·, dim_a], v [·, dim_v] -> [·, dim_o],
// fc_o dim_o -> dim_o; weights xavier_normal, biases 0 (its src/blocks.py).
struct Projections {
  std::shared_ptr<Linear> fc_q, fc_k, fc_v, fc_o;
};
Projections register_projections(Module& m, const AttentionOptions& options);

class Attention : public Module {
 public:
  // q [B, Tq, dim_q], k [B, Tk, dim_k], v [B, Tk, dim_v] -> [B, Tq, dim_o].
  // keep: undefined, or bool [B, Tk] (key padding, the same for every query) or [B, Tq, Tk];
  //   true = attend, false = ignore (another dtype throws). causal: query i sees keys j <= i only (needs Tq == Tk).
  virtual Tensor forward(const Tensor& q, const Tensor& k, const Tensor& v,
                         const Tensor& keep = Tensor(), bool causal = false) = 0;
  Tensor operator()(const Tensor& q, const Tensor& k, const Tensor& v,
                    const Tensor& keep = Tensor(), bool causal = false) {
    return forward(q, k, v, keep, causal);
  }
  // The name it is registered under ("softmax", "linear_elu", ...).
  virtual std::string name() const = 0;
};

// Builds a block's attention from the sizes the block gives it (AttentionOptions).
using AttentionFactory = std::function<std::shared_ptr<Attention>(const AttentionOptions&)>;

}  // namespace attic::nn
