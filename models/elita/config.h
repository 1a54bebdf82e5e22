// ElitaConfig: the ELiTA language model's hyperparameters. The original's Model2 takes
// (width, layers, heads, attention_width, position_width, linear_factor, dropout)
// (acosharma/elita-transformer, main.py); the vocabulary and the context length are the
// LM's, which the original leaves to its user.
#pragma once

#include <cstdint>

#include "models/elita/attention2.h"
#include "models/model_spec.h"

namespace attic::models::elita {

struct ElitaConfig {
  int64_t vocab_size = 65;   // V
  int64_t block_size = 256;  // N: the context generation keeps, and what absolute positions divide by
  int64_t n_layer = 4;
  int64_t n_head = 4;        // H
  int64_t n_embd = 128;      // W
  int64_t att_w = 0;         // A, each head's value width; 0: W / H
  int64_t pos_w = 16;        // P
  int64_t ff_factor = 8;     // F of FeedForward2
  Numerics numerics = Numerics::Stable;
  Positions positions = Positions::Relative;
  double dropout = 0.0;      // on each sublayer's output, as the original

  void validate() const;  // throws attic::Error naming ElitaLM and the values
  Attention2Options attention_options() const;
};

// The ELiTA LM's own option (ModelSpec::model_options), beside its attention's (Attention2Args).
struct ElitaModelOptions {
  int64_t ff = 8;  // F of FeedForward2
  void bind(util::Options& o);
  static std::vector<nn::OptionAlias> aliases() { return {{"elita_ff", "ff"}}; }
};

// The ELiTA LM of spec: its attention is elita (softmax, the default, means the same here),
// whose options att_w, pos_w, numerics and positions come from spec.attention_options, and
// the feed-forward factor from spec.model_options ("ff=8"). Throws attic::Error for another
// attention, an unknown option or what validate() refuses.
ElitaConfig elita_config(const ModelSpec& spec);

}  // namespace attic::models::elita
