#include "nn/attention/keep_mask.h"

namespace attic::nn {

// keep [B, Tk] or [B, Tq, Tk] -> [B, 1, 1 or Tq, Tk] 0/1 in dtype, ANDed with tril if causal
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
    m = ne(keep.to(dtype), 0.0);
    m = padding ? m.unsqueeze(1).unsqueeze(1) : m.unsqueeze(1);
  }
  if (causal) {
    Tensor lower = tril(ones({Tq, Tk}, TensorOptions(dtype).device(keep.defined() ? keep.device() : Device::CPU)));
    m = m.defined() ? m * lower : lower;
  }
  return m;
}

}  // namespace attic::nn
