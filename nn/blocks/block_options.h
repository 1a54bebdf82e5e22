// The sizes and switches every Transformer block takes (those of tonyduan/transformer-blocks'
// blocks, src/blocks.py).
#pragma once

#include <cstdint>

#include "nn/attention/attention.h"
#include "nn/attention/multi_head_attention.h"

namespace attic::nn {

struct BlockOptions {
  int64_t dim = 0;         // d, the width of the block's input and output
  int64_t hidden = 0;      // width of the feed-forward's hidden layer (0: dim)
  int64_t num_heads = 1;
  double dropout = 0.0;    // on the attention weights and on each residual branch
  // Builds the attention: softmax by default; models::attention_factory(name) gives any
  // registered one with a q, k, v form (models/registry.h).
  AttentionFactory attention = make_softmax_attention;
  int64_t memory_dim = 0;  // decoder / cross-attention: width of the memory (0: dim)
  bool scale_by_total_width = false;  // softmax: src/blocks.py's 1/√dim_a scale

  int64_t ffn_hidden() const { return hidden > 0 ? hidden : dim; }
  int64_t mem() const { return memory_dim > 0 ? memory_dim : dim; }
  // Attention from queries of width dim to keys and values of width kv_dim.
  AttentionOptions attention_options(int64_t kv_dim) const {
    AttentionOptions o;
    o.dim_q = dim;
    o.dim_k = o.dim_v = kv_dim;
    o.num_heads = num_heads;
    o.dropout = dropout;
    o.scale_by_total_width = scale_by_total_width;
    return o;
  }
};

}  // namespace attic::nn
