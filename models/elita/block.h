// One ELiTA layer, as the original's Model2 stacks them (acosharma/elita-transformer,
// main.py): pre-norm residuals with a LayerNorm that has no parameters (Keras's
// LayerNormalization(center=False, scale=False), epsilon 1e-3):
//   x = x + drop(Attention2(LN(x)))
//   x = x + drop(FeedForward2(LN(x)))
#pragma once

#include "models/elita/attention2.h"
#include "models/elita/config.h"
#include "models/elita/feed_forward2.h"

namespace attic::models::elita {

// x [..., W] -> [..., W]: (x − mean) / √(var + 1e-3) over the last dim, no gain, no bias
Tensor parameter_free_layer_norm(const Tensor& x);

class Block : public nn::Module {
 public:
  explicit Block(const ElitaConfig& cfg);
  // x [B, N, W] -> [B, N, W]
  Tensor forward(const Tensor& x);
  // x [B, t, W]: the t tokens after those state has seen -> [B, t, W]
  Tensor step(nn::MixerState& state, const Tensor& x);

  std::shared_ptr<Attention2> attn;
  std::shared_ptr<FeedForward2> ff;
  std::shared_ptr<nn::Dropout> drop;
};

}  // namespace attic::models::elita
