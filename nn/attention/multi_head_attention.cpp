#include "nn/attention/multi_head_attention.h"

#include <cmath>

#include "nn/attention/keep_mask.h"

namespace attic::nn {

MultiHeadAttention::MultiHeadAttention(const AttentionOptions& opt) : options(opt) {
  options.validate("MultiHeadAttention");
  const Projections p = register_projections(*this, opt);
  fc_q = p.fc_q, fc_k = p.fc_k, fc_v = p.fc_v, fc_o = p.fc_o;
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
  ATTIC_CHECK(!causal || Tq == Tk, "MultiHeadAttention: causal attention needs as many queries as keys, got Tq = ",
              Tq, " and Tk = ", Tk);
  Tensor qh = split_heads(fc_q->forward(q), NH);  // [B, NH, Tq, dim_a/NH]
  Tensor kh = split_heads(fc_k->forward(k), NH);  // [B, NH, Tk, dim_a/NH]
  Tensor vh = split_heads(fc_v->forward(v), NH);  // [B, NH, Tk, dim_o/NH]
  Tensor w;
  Tensor o = scaled_dot_product_attention(
      qh, kh, vh,
      {.attn_mask = keep_mask_4d(keep, B, Tq, Tk, false, "MultiHeadAttention"),
       .is_causal = causal,
       .scale = scale,
       .dropout_p = is_training() ? options.dropout : 0.0,
       .masked_logit = kMaskedLogit,
       .weights = record_weights ? &w : nullptr});  // [B, NH, Tq, dim_o/NH]
  if (record_weights) last_weights = w;
  return fc_o->forward(merge_heads(o));
}

std::shared_ptr<Attention> make_softmax_attention(const AttentionOptions& options) {
  return std::make_shared<MultiHeadAttention>(options);
}

}  // namespace attic::nn
