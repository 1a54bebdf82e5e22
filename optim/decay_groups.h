// nanoGPT's two AdamW parameter groups (karpathy/nanoGPT, model.py, configure_optimizers):
// every parameter tensor of 2 or more dims (weight matrices, embeddings) decays; the others
// (biases, LayerNorm and ScaleNorm gains) do not. A bias is an offset, and a gain decayed
// toward 0 would switch its layer off.
#pragma once

#include <string>
#include <utility>

#include "nn/module.h"
#include "optim/adam.h"

namespace attic::optim {

struct DecayGroups {
  nn::NamedTensors decay, no_decay;  // each in named_parameters() order
  // nanoGPT's two lines, e.g. for its Shakespeare GPT:
  //   num decayed parameter tensors: 26, with 10,740,096 parameters
  //   num non-decayed parameter tensors: 13, with 4,992 parameters
  std::string summary() const;
};

// The parameters of model that require grad (a tied tensor once), split by p.dim() >= 2,
// except that a name some module lists in no_weight_decay() never decays.
DecayGroups decay_groups(const nn::Module& model);

// AdamW over decay_groups(model): group 0 (dim >= 2) with weight_decay, group 1 with 0;
// lr = learning_rate, betas = (beta1, beta2), eps 1e-8.
AdamW configure_optimizers(const nn::Module& model, double weight_decay, double learning_rate,
                           std::pair<double, double> betas);

}  // namespace attic::optim
