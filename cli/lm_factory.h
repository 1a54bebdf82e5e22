// The language models `attic train`, `sample` and `eval` can drive, chosen by the model
// key: gpt (karpathy/nanoGPT's GPT, the default), pooled_lm (the window LM with attention
// pooling of tonyduan/transformer-blocks, src/models.py), elita (the Model2 stack of
// acosharma/elita-transformer, main.py, as an LM) or linformer (LinformerLM of
// tatp22/linformer-pytorch). The attention key picks the gpt's or the pooled LM's attention
// from models/registry.h. The loop sees only this interface, so train.cpp stays one
// loop for every model.
#pragma once

#include <memory>

#include "cli/train_config.h"
#include "nn/module.h"
#include "optim/adam.h"
#include "tensor/random.h"

namespace attic::cli {

class TrainableLM {
 public:
  virtual ~TrainableLM() = default;
  virtual nn::Module& module() = 0;
  // x, y [B, T] from TextDataset::get_batch (y is x shifted by one) -> 0-d mean loss.
  // GPT predicts every position; the pooled LM predicts y's last column from x.
  virtual Tensor loss(const Tensor& x, const Tensor& y) = 0;
  // idx [B, T0] -> [B, T0 + max_new_tokens]. use_cache: through the attentions' step
  // states where the model has them (GPT); the tokens are the same either way.
  virtual Tensor generate(const Tensor& idx, int64_t max_new_tokens, double temperature,
                          int64_t top_k, Generator* gen, bool use_cache) = 0;
  // The parameter count `attic train` prints (GPT: nanoGPT's, without wpe).
  virtual int64_t reported_params() const = 0;
  // The model's configure_optimizers: nanoGPT's two AdamW groups.
  virtual optim::AdamW configure_optimizers(double weight_decay, double learning_rate,
                                            std::pair<double, double> betas) = 0;
};

// Builds the model cfg.model names for a vocabulary of vocab_size (cfg.validate() has
// checked the names).
std::unique_ptr<TrainableLM> make_lm(const TrainConfig& cfg, int64_t vocab_size);

}  // namespace attic::cli
