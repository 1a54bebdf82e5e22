// Hyperparameters of the models built from nn/blocks (the WikiText-2 LM of
// tonyduan/transformer-blocks, src/models.py, and the copy task).
#pragma once

#include <cstdint>
#include <string>

#include "models/model_spec.h"
#include "models/registry.h"
#include "nn/attention/attention.h"
#include "nn/blocks/block_options.h"

namespace attic::models {

// tonyduan/transformer-blocks' "BERTLanguageModel" (src/models.py): a window of L tokens
// -> the distribution of the next one.
struct PooledLMConfig {
  int64_t vocab_size = 65;  // V
  int64_t window = 32;      // L: tokens in, one predicted
  int64_t n_layer = 4;
  int64_t n_head = 8;
  int64_t n_embd = 768;     // d
  int64_t hidden = 0;       // feed-forward width (0: d; its src/train.py uses 768/768)
  double dropout = 0.1;
  std::string attention = "softmax";  // a name from models/registry.h

  void validate() const;  // throws attic::Error naming the bad value
};

// The pooled LM's own option, from spec.model_options ("hidden=768") or its train key
// pooled_hidden: the encoder blocks' feed-forward width, 0 for d (src/train.py's
// hidden_dim = dim = 768).
struct PooledLMOptions {
  int64_t hidden = 0;
  void bind(util::Options& o);
  static std::vector<nn::OptionAlias> aliases() { return {{"pooled_hidden", "hidden"}}; }
};

// The pooled LM of spec: window = block_size, and spec's layers, heads, width, dropout and
// attention, which must have a q, k, v form, and PooledLMOptions from spec.model_options.
// It has no bias key, and its attentions take no options: one given is an attic::Error.
PooledLMConfig pooled_lm_config(const ModelSpec& spec);

// An encoder-decoder over one shared vocabulary (the Annotated Transformer's copy task).
struct EncoderDecoderConfig {
  int64_t vocab_size = 11;  // V, id 0 is the start-of-sequence token
  int64_t max_length = 16;  // longest source and target
  int64_t n_layer = 2;      // encoder blocks, and as many decoder blocks
  int64_t n_head = 4;
  int64_t n_embd = 32;
  int64_t hidden = 64;
  double dropout = 0.0;
  std::string attention = "softmax";  // a name from models/registry.h

  void validate() const;
};

// The options of every block of a model above (PooledLMConfig, EncoderDecoderConfig): width
// d, heads, feed-forward width, dropout and attention.
template <class Config>
nn::BlockOptions block_options(const Config& cfg) {
  nn::BlockOptions o;
  o.dim = cfg.n_embd;
  o.hidden = cfg.hidden;
  o.num_heads = cfg.n_head;
  o.dropout = cfg.dropout;
  o.attention = attention_factory(cfg.attention);
  return o;
}

}  // namespace attic::models
