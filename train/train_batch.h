// The batch a training step reads (train_run's micro-batch `micro` of iteration `iter`),
// drawn as the config's `batches` key says:
//   shared  from the default generator, which manual_seed(seed) also hands the weights' init
//           and dropout: nanoGPT's get_batch (torch.randint on the global generator), so two
//           models that draw different numbers at init train on different batches;
//   own     from a generator made for this (seed, iteration, micro-batch) alone, so every
//           model trained with one seed sees the same batches, and a resumed run the same
//           ones as an uninterrupted run, with no generator state to save.
#pragma once

#include <cstdint>

#include "data/batch.h"
#include "data/dataset.h"
#include "train/train_config.h"

namespace attic::train {

Batch train_batch(const TrainConfig& cfg, const Dataset& data, int64_t iter, int64_t micro);

}  // namespace attic::train
