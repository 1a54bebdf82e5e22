// nanoGPT's estimate_loss (karpathy/nanoGPT, train.py), the one that `attic train` logs and
// `attic eval` prints: for the same config and iteration both average the same batches.
#pragma once

#include "models/registry.h"
#include "train/train_config.h"
#include "data/text_dataset.h"
#include "tensor/dtype.h"

namespace attic::train {

struct Losses {
  double train = 0, val = 0;
};

// The mean loss of cfg.eval_iters batches [cfg.batch_size, cfg.block_size] of each split, in
// eval mode and without a graph; the model's mode is restored afterwards. The batches come
// from a generator seeded by (cfg.seed, iter), not from the training generator, so that
// evaluating never changes what the training sees (a resumed run repeats an uninterrupted
// one exactly), and so that `attic eval` at a checkpoint's iteration draws the batches
// `attic train` drew there.
Losses estimate_loss(models::LanguageModel& lm, const Dataset& data, const TrainConfig& cfg,
                     int64_t iter, Device device);

}  // namespace attic::train
