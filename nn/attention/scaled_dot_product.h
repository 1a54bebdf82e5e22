// Scaled dot-product attention on heads that are already split, and the mask plumbing that
// MultiHeadAttention and LinearAttention share.
#pragma once

#include "tensor/ops.h"

namespace attic::nn {

// x [B, T, NH·hs] -> [B, NH, T, hs] (a view), and back (a copy: the heads side by side).
Tensor split_heads(const Tensor& x, int64_t num_heads);
Tensor merge_heads(const Tensor& x);

// The keep mask (nonzero = attend) as a 0/1 tensor in dtype that broadcasts against
// [B, NH, Tq, Tk]: [B, Tk] -> [B, 1, 1, Tk], [B, Tq, Tk] -> [B, 1, Tq, Tk]; causal ANDs in
// the lower triangle (key j <= query i). Undefined when there is neither mask nor causal.
// Throws attic::Error, naming who, for a shape that is not one of those.
Tensor keep_mask_4d(const Tensor& keep, int64_t B, int64_t Tq, int64_t Tk, bool causal,
                    DType dtype, const char* who);

// The fill value of dropped logits: fp16's lowest, −65504, as tonyduan/transformer-blocks'
// src/blocks.py does, not −∞. After the max-subtracted softmax a row with some kept key gives
// the dropped ones exp(−65504 − m), which is 0 in float32 and float64; a row with no kept key
// is uniform, so it returns the mean of v instead of NaN.
inline constexpr double kMaskedLogit = -65504.0;

// q [B, NH, Tq, hs], k [B, NH, Tk, hs], v [B, NH, Tk, hv], keep from keep_mask_4d (or
// undefined) -> [B, NH, Tq, hv]:
//   w = softmax(q kᵀ · scale, over keys) with dropped logits set to kMaskedLogit;
//   out = dropout(w) v.
// weights, when given, receives w (before dropout).
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                    const Tensor& keep, double scale, double dropout_p = 0.0,
                                    bool training = false, Tensor* weights = nullptr);

}  // namespace attic::nn
