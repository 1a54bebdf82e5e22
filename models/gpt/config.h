// GPTConfig: nanoGPT's model hyperparameters (model.py's GPTConfig).
#pragma once

#include <cstdint>

namespace attic::models {

struct GPTConfig {
  int64_t block_size = 1024;  // T max: the context length
  int64_t vocab_size = 50304;  // V
  int64_t n_layer = 12;
  int64_t n_head = 12;  // NH
  int64_t n_embd = 768;  // C; each head has hs = C / NH
  double dropout = 0.0;
  bool bias = true;  // biases in Linear and LayerNorm layers

  // Throws attic::Error if the sizes are not positive or C is not a multiple of NH.
  void validate() const;
};

}  // namespace attic::models
