#include "nn/attention/keep_mask.h"

namespace attic::nn {

// keep [B, Tk] or [B, Tq, Tk] bool -> [B, 1, 1 or Tq, Tk] bool, ANDed with tril if causal
Tensor keep_mask_4d(const Tensor& keep, int64_t B, int64_t Tq, int64_t Tk, bool causal,
                    const char* who) {
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
  return m;
}

}  // namespace attic::nn
