// GPTConfig: nanoGPT's model hyperparameters (model.py's GPTConfig).
#pragma once

#include <cstdint>
#include <string>

#include "models/model_spec.h"
#include "nn/attention/causal_mixer.h"
#include "nn/attention/declared_options.h"

namespace attic::models {

struct GPTConfig {
  int64_t block_size = 1024;  // T max: the context length
  int64_t vocab_size = 50304;  // V
  int64_t n_layer = 12;
  int64_t n_head = 12;  // NH
  int64_t n_embd = 768;  // C; each head has hs = C / NH
  double dropout = 0.0;
  bool bias = true;  // biases in Linear and LayerNorm layers
  // Each block's attention, a name from models/registry.h, and its own options
  // ("key=value,..."; see nn/attention/attention_args.h). nanoGPT has "softmax" only.
  std::string attention = "softmax";
  std::string attention_options = "";
  // The MLP's GELU: "none", the exact x·Φ(x) of nanoGPT's nn.GELU(), or "tanh", the
  // approximation GPT-2 was trained with (OpenAI's gpt-2, src/model.py gelu; transformers'
  // "gelu_new"). nanoGPT's from_pretrained loads GPT-2's weights under its exact GELU, which
  // is not the function GPT-2 was trained with; attic's GPT-2 models use "tanh", as
  // transformers' GPT2LMHeadModel does.
  std::string gelu = "none";

  // Throws attic::Error if the sizes are not positive, C is not a multiple of NH, or the
  // attention is not a registered name.
  void validate() const;
};

// The GPT's own options (ModelSpec::model_options): gelu, also attic train's key of that name.
struct GptOptions {
  std::string gelu = "none";
  void bind(util::Options& o);
  static std::vector<nn::OptionAlias> aliases() { return {{"gelu", "gelu"}}; }
};

// The GPT of spec: every key of ModelSpec as GPTConfig names it, and GptOptions from
// model_options. Throws attic::Error for an unknown option or what validate() refuses.
GPTConfig gpt_config(const ModelSpec& spec);

// The options of block layer's attention in a GPT of config cfg (the attention's own
// options parsed from cfg.attention_options).
nn::MixerOptions mixer_options(const GPTConfig& cfg, int64_t layer = 0);

}  // namespace attic::models
