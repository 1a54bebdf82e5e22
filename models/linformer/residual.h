// The Linformer's residual connection, post-norm: Residual of the linformer-pytorch package
// (after lucidrains/sinkhorn-transformer, with the norm moved after the sum):
//
//   y = norm(x + fn(x))                    when fn keeps the width
//   y = norm(resample(x) + fn(x))          resample: Linear(C_in → C_out) when it does not
//
// Post-norm means every sublayer's output is a LayerNorm's: mean 0 and variance 1 per token
// at init, whatever the depth. Names: fn.*, resample.*, norm.weight, norm.bias.
#pragma once

#include <functional>
#include <memory>

#include "models/linformer/linear_attention_head.h"
#include "nn/layer_norm.h"
#include "nn/linear.h"

namespace attic::models::linformer {

class Residual : public nn::Module {
 public:
  using Call = std::function<Tensor(const Tensor& x, const LayerArgs& args)>;
  // fn is registered as the child "fn"; call runs it.
  Residual(std::shared_ptr<nn::Module> fn, Call call, int64_t in_channels, int64_t out_channels);
  // x [B, n, C_in] -> [B, n, C_out]
  Tensor forward(const Tensor& x, const LayerArgs& args = {});

  std::shared_ptr<nn::Module> fn;
  Call call;
  std::shared_ptr<nn::Linear> resample;  // null when C_in == C_out
  std::shared_ptr<nn::LayerNorm> norm;
};

}  // namespace attic::models::linformer
