#include "nn/attention/scaled_dot_product.h"

namespace attic::nn {

// x [B, T, NH·hs] -> [B, NH, T, hs]
Tensor split_heads(const Tensor& x, int64_t num_heads) {
  const int64_t B = x.size(0), T = x.size(1), W = x.size(2);
  return x.reshape({B, T, num_heads, W / num_heads}).transpose(1, 2);
}

// x [B, NH, T, hs] -> [B, T, NH·hs], head h in columns h·hs .. (h+1)·hs − 1
Tensor merge_heads(const Tensor& x) {
  const int64_t B = x.size(0), NH = x.size(1), T = x.size(2), hs = x.size(3);
  return x.transpose(1, 2).contiguous().view({B, T, NH * hs});
}

// keep [B, Tk] or [B, Tq, Tk] bool -> [B, 1, 1 or Tq, Tk] 0/1 in dtype, ANDed with tril if causal
Tensor keep_mask_4d(const Tensor& keep, int64_t B, int64_t Tq, int64_t Tk, bool causal,
                    DType dtype, const char* who) {
  ATTIC_CHECK(!causal || Tq == Tk, who, ": causal attention needs as many queries as keys, got Tq = ",
              Tq, " and Tk = ", Tk);
  Tensor m;
  if (keep.defined()) {
    const bool padding = keep.dim() == 2 && keep.size(0) == B && keep.size(1) == Tk;
    const bool full = keep.dim() == 3 && keep.size(0) == B && keep.size(1) == Tq && keep.size(2) == Tk;
    ATTIC_CHECK(padding || full, who, ": mask of shape ", str(keep.shape()), " must be [B, Tk] = ",
                str({B, Tk}), " or [B, Tq, Tk] = ", str({B, Tq, Tk}));
    ATTIC_CHECK(keep.dtype() == kBool, who, ": mask must be bool (true = attend), got ",
                dtype_name(keep.dtype()), "; make it with a comparison or .to(kBool)");
    m = padding ? keep.unsqueeze(1).unsqueeze(1) : keep.unsqueeze(1);
  }
  if (causal) {
    Tensor lower = tril(ones({Tq, Tk}, TensorOptions(kBool).device(keep.defined() ? keep.device() : Device::CPU)));
    m = m.defined() ? logical_and(m, lower) : lower;
  }
  return m.defined() ? m.to(dtype) : m;
}

// q [B, NH, Tq, hs], k [B, NH, Tk, hs], v [B, NH, Tk, hv] -> [B, NH, Tq, hv]
//   out = softmax(q kᵀ · scale) v  (Vaswani et al. 2017, eq. 1)
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                    const Tensor& keep, double scale, double dropout_p,
                                    bool training, Tensor* weights) {
  Tensor logits = matmul(q, k.transpose(-2, -1)) * scale;  // [B, NH, Tq, Tk]
  if (keep.defined()) logits = masked_fill(logits, eq(keep, 0.0), kMaskedLogit);
  Tensor w = softmax(logits, -1);
  if (weights) *weights = w.detach();
  return matmul(dropout(w, dropout_p, training), v);
}

}  // namespace attic::nn
