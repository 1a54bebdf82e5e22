#include "models/linformer/padder.h"

namespace attic::models::linformer {

Padder::Padder(std::shared_ptr<LinformerLM> net, bool mask) : lm(std::move(net)), pad_mask(mask) {
  register_module("net", lm);
}
Padder::Padder(std::shared_ptr<Linformer> net, bool mask) : stack(std::move(net)), pad_mask(mask) {
  register_module("net", stack);
}

Tensor Padder::forward(const Tensor& x, const LayerArgs& args) {
  const int64_t n = lm ? lm->options.body.input_size : stack->options.input_size;
  ATTIC_CHECK(x.dim() == (lm ? 2 : 3) && x.size(1) >= 1 && x.size(1) <= n, "Padder: expected ",
              lm ? "ids [B, m]" : "x [B, m, C]", " with 1 <= m <= ", n, ", got ", str(x.shape()));
  const int64_t B = x.size(0), m = x.size(1);
  Shape pad = x.shape();
  pad[1] = n - m;
  Tensor full = m == n ? x : cat({x, zeros(pad, TensorOptions(x.dtype()).device(x.device()))}, 1);
  LayerArgs a = args;
  if (pad_mask && m < n) {
    Tensor keep = lt(arange(double(n), TensorOptions().device(x.device())), double(m));  // [n]
    a.input_mask = keep.view({1, n}).expand({B, n}).contiguous();
  }
  Tensor y = lm ? lm->forward(full, a) : stack->forward(full, a);
  return y.narrow(1, 0, m);
}

}  // namespace attic::models::linformer
