// The keep masks of the nn attentions: bool, [B, Tk] key padding or [B, Tq, Tk], true =
// attend, turned into the shape scaled_dot_product_attention's attn_mask broadcasts from.
#pragma once

#include "ops/ops.h"

namespace attic::nn {

// The bool keep mask (true = attend) as a bool tensor that broadcasts against
// [B, NH, Tq, Tk]: [B, Tk] -> [B, 1, 1, Tk], [B, Tq, Tk] -> [B, 1, Tq, Tk]; causal ANDs in
// the lower triangle (key j <= query i). Undefined when there is neither mask nor causal.
// Throws attic::Error, naming who, for a mask that is not bool or not of those shapes.
Tensor keep_mask_4d(const Tensor& keep, int64_t B, int64_t Tq, int64_t Tk, bool causal,
                    const char* who);

// The fill value of dropped logits in tonyduan/transformer-blocks: fp16's lowest, −65504,
// not −∞. After the max-subtracted softmax a row with some kept key gives the dropped ones
// exp(−65504 − m), which is 0 in float32 and float64; a row with no kept key is uniform, so
// it returns the mean of v instead of NaN. MultiHeadAttention passes it as
// SdpaOptions::masked_logit.
inline constexpr double kMaskedLogit = -65504.0;

}  // namespace attic::nn
