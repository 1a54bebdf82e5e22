// The Linformer LM's fixed positions: PositionalEmbedding of the linformer-pytorch package,
// the sinusoids of Vaswani et al. 2017 with base 100000 instead of 10000 (longer sequences)
// and laid out as halves, not interleaved:
//
//   inv_freq_i = 100000^(−2i/E)          i = 0 .. E/2 − 1
//   pe[t]      = [sin(t · inv_freq) | cos(t · inv_freq)]      [n, E]
//
// inv_freq is a buffer (pos_emb.inv_freq in the package's state dict); nothing is learned.
#pragma once

#include "nn/module.h"

namespace attic::models::linformer {

class PositionalEmbedding : public nn::Module {
 public:
  explicit PositionalEmbedding(int64_t channels);  // E, even
  // -> [1, n, E] for positions offset .. offset + n − 1
  Tensor forward(int64_t n, int64_t offset = 0) const;

  Tensor inv_freq;  // [E/2]
};

}  // namespace attic::models::linformer
