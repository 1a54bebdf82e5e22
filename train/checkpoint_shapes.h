// Before a model is built from a checkpoint: does its config describe the tensors in the
// file? Building first would let a config that says n_layer = 100000000 or block_size =
// 2^62 allocate until memory runs out before any tensor is compared. These checks read only
// the tensors' names and shapes, and fix every size a model grows with (the layers, the
// width, the vocabulary, the positions), so that what is then built is no larger than the
// file; the strict load that follows compares every tensor.
#pragma once

#include <string>

#include "train/train_config.h"
#include "nn/module.h"

namespace attic::train {

// Throws attic::Error naming path, the key and both values when cfg (model, n_layer,
// n_embd, block_size) or vocab_size disagrees with the tensors of the checkpoint at path.
void check_config_against_tensors(const TrainConfig& cfg, int64_t vocab_size,
                                  const nn::StateDict& tensors, const std::string& path);

}  // namespace attic::train
