#include "models/linformer/residual.h"

namespace attic::models::linformer {

Residual::Residual(std::shared_ptr<nn::Module> fn_, Call call_, int64_t in_channels, int64_t out_channels)
    : fn(std::move(fn_)), call(std::move(call_)) {
  register_module("fn", fn);
  if (in_channels != out_channels)
    resample = register_module("resample", std::make_shared<nn::Linear>(in_channels, out_channels));
  norm = register_module("norm", std::make_shared<nn::LayerNorm>(out_channels));
}

Tensor Residual::forward(const Tensor& x, const LayerArgs& args) {
  Tensor skip = resample ? resample->forward(x) : x;
  return norm->forward(skip + call(x, args));
}

}  // namespace attic::models::linformer
