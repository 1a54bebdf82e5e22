#include "nn/attention/multi_head_attention.h"

#include <cmath>

#include "nn/attention/scaled_dot_product.h"
#include "nn/init.h"

namespace attic::nn {

namespace {

std::shared_ptr<Linear> xavier_linear(int64_t in, int64_t out) {
  auto fc = std::make_shared<Linear>(in, out);
  init::xavier_normal_(fc->weight);
  init::zeros_(fc->bias);
  return fc;
}

}  // namespace

MultiHeadAttention::MultiHeadAttention(const AttentionOptions& opt) : options(opt) {
  options.validate("MultiHeadAttention");
  fc_q = register_module("fc_q", xavier_linear(opt.dim_q, opt.a()));
  fc_k = register_module("fc_k", xavier_linear(opt.dim_k, opt.a()));
  fc_v = register_module("fc_v", xavier_linear(opt.dim_v, opt.o()));
  fc_o = register_module("fc_o", xavier_linear(opt.o(), opt.o()));
  // The README of tonyduan/transformer-blocks divides by √d_k, the width of one head's
  // queries; its code (src/blocks.py) divides by √dim_a, the width of all heads together:
  // kept as the scale_by_total_width option.
  const double width = opt.scale_by_total_width ? double(opt.a()) : double(opt.a() / opt.num_heads);
  scale = 1.0 / std::sqrt(width);
}

// q [B, Tq, dim_q], k [B, Tk, dim_k], v [B, Tk, dim_v] -> [B, Tq, dim_o]
Tensor MultiHeadAttention::forward(const Tensor& q, const Tensor& k, const Tensor& v,
                                   const Tensor& keep, bool causal) {
  ATTIC_CHECK(q.dim() == 3 && k.dim() == 3 && v.dim() == 3 && q.size(0) == k.size(0) &&
                  k.size(0) == v.size(0) && k.size(1) == v.size(1),
              "MultiHeadAttention: q, k, v must be [B, Tq, dim_q], [B, Tk, dim_k], [B, Tk, dim_v], got ",
              str(q.shape()), ", ", str(k.shape()), ", ", str(v.shape()));
  const int64_t B = q.size(0), Tq = q.size(1), Tk = k.size(1), NH = options.num_heads;
  Tensor m = keep_mask_4d(keep, B, Tq, Tk, causal, q.dtype(), "MultiHeadAttention");
  Tensor qh = split_heads(fc_q->forward(q), NH);  // [B, NH, Tq, dim_a/NH]
  Tensor kh = split_heads(fc_k->forward(k), NH);  // [B, NH, Tk, dim_a/NH]
  Tensor vh = split_heads(fc_v->forward(v), NH);  // [B, NH, Tk, dim_o/NH]
  Tensor w;
  Tensor o = scaled_dot_product_attention(qh, kh, vh, m, scale, options.dropout, is_training(),
                                          record_weights ? &w : nullptr);
  if (record_weights) last_weights = w;
  return fc_o->forward(merge_heads(o));
}

}  // namespace attic::nn
