// Rebuilding the trained model from a checkpoint directory (for sample and eval).
#pragma once

#include <memory>
#include <string>

#include "cli/checkpoint.h"
#include "cli/lm_factory.h"
#include "cli/train_config.h"
#include "data/tokenizer.h"

namespace attic::cli {

struct Restored {
  TrainConfig config;  // as saved in the checkpoint
  CheckpointInfo info;
  std::unique_ptr<TrainableLM> model;
  std::unique_ptr<CharTokenizer> tokenizer;
};

Restored restore(const std::string& out_dir);

}  // namespace attic::cli
