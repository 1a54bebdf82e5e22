// The one interface between a language model and what drives it: `attic train`'s loop,
// `attic sample`, `attic eval` and the lab's experiments. Every model here that reads a
// text and predicts its next token (the GPT, the pooled LM, the ELiTA LM, the Linformer
// LM) is a LanguageModel, and its line in models/registry.h builds it from a ModelSpec.
#pragma once

#include <cstdint>
#include <utility>

#include "models/model_spec.h"
#include "nn/module.h"
#include "optim/adam.h"
#include "tensor/random.h"

namespace attic::models {

class LanguageModel : public nn::Module {
 public:
  // x, y [B, T] int64 from TextDataset::get_batch (y is x one token later) -> the 0-d mean
  // cross-entropy. A model that predicts every position (the GPT) reads all of y; one that
  // predicts the token after a window (the pooled LM) reads y's last column.
  virtual Tensor loss(const Tensor& x, const Tensor& y) = 0;

  // Appends max_new_tokens tokens to idx [B, T0] by nanoGPT's rule: crop the context to the
  // model's length, divide the last logits by temperature (0: argmax), keep the top_k
  // largest (0: all), softmax, draw one. No graph, eval mode. use_cache: carry each
  // attention's step state where the model has one; the tokens drawn are the same either
  // way. Every override repeats these defaults, so that a call reads the same through the
  // model's own type.
  virtual Tensor generate(const Tensor& idx, int64_t max_new_tokens, double temperature = 1.0,
                          int64_t top_k = 0, Generator* gen = nullptr, bool use_cache = true) = 0;

  // The parameter count `attic train` prints: every parameter, the tied ones once (the GPT
  // leaves out its position table, as nanoGPT does).
  virtual int64_t reported_params() const { return num_parameters(); }

  // nanoGPT's configure_optimizers (karpathy/nanoGPT, model.py): AdamW in two groups, the
  // tensors of 2 or more dims decaying by weight_decay and the others not, less what the
  // model's modules name in no_weight_decay() (optim/decay_groups.h).
  virtual optim::AdamW configure_optimizers(double weight_decay, double learning_rate,
                                            std::pair<double, double> betas);
};

}  // namespace attic::models
