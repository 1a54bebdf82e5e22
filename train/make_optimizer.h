// The optimizer a training run steps, from its config:
//   optimizer = adamw   nanoGPT's configure_optimizers: AdamW(betas = (beta1, beta2)) over
//                       the matrices (weight_decay) and the rest (0)
//   optimizer = sgd     torch.optim.SGD(lr, momentum, dampening, weight_decay, nesterov) over
//                       the same two groups
// With decay_all = true both groups take weight_decay, as an optimizer built over
// model.parameters() gives it to every tensor (the transformer-blocks and linformer-pytorch
// scripts do so).
#pragma once

#include <memory>

#include "models/language_model.h"
#include "optim/optimizer.h"
#include "train/train_config.h"

namespace attic::train {

std::unique_ptr<optim::Optimizer> make_optimizer(const TrainConfig& cfg, models::LanguageModel& lm);

}  // namespace attic::train
