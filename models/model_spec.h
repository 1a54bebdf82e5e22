// ModelSpec: what a language model is built from, by name, in the model registry
// (models/registry.h).
#pragma once

#include <cstdint>
#include <string>

namespace attic::models {

// The keys of a training config that shape a model's weights. Each model reads those it
// has (the pooled LM has no bias key; the Linformer LM's attention is fixed) and its entry
// refuses a value it cannot take, naming the key.
struct ModelSpec {
  int64_t vocab_size = 0;     // V
  int64_t block_size = 1024;  // T, the context length (the pooled LM: its window L)
  int64_t n_layer = 12;
  int64_t n_head = 12;        // NH
  int64_t n_embd = 768;       // C
  double dropout = 0.0;
  bool bias = false;          // biases in Linear and LayerNorm
  std::string attention = "softmax";  // every block's, a name from attention_registry()
  std::string attention_options;      // the attention's own options, "key=value,..."
  std::string model_options;          // the model's own options, "key=value,..."
};

}  // namespace attic::models
