// Rebuilding the trained model from a checkpoint directory (for sample and eval), and the
// config a resumed training takes from it.
#pragma once

#include <memory>
#include <string>

#include "train/checkpoint.h"
#include "models/registry.h"
#include "train/train_config.h"
#include "data/tokenizer.h"

namespace attic::train {

struct Restored {
  TrainConfig config;  // TrainConfig::from_checkpoint: as saved, then what `given` set
  CheckpointInfo info;
  std::unique_ptr<models::LanguageModel> model;  // in eval mode
  std::unique_ptr<Tokenizer> tokenizer;
};

// The model, tokenizer and config of out_dir's checkpoint; given: the keys of the command
// line that override the saved config (TrainConfig::from_checkpoint). The file is read
// once, and its config checked against its tensors before the model is built.
Restored restore(const std::string& out_dir, const util::Options& given = util::Options());

// A GPT-2 of cfg.gpt2_dir (cfg.from_gpt2(), its shape taken by TrainConfig::take_gpt2_shape):
// the model in eval mode, the folder's tokenizer, and info as for a checkpoint at iteration 0.
Restored restore_gpt2(const TrainConfig& cfg);

// The config `attic train --init_from=resume` runs with: TrainConfig::from_checkpoint of
// out_dir's checkpoint, checked against the checkpoint's tensors, so that the model
// train_run builds is the one the file holds. reset_optimizer is true only if given.
TrainConfig resume_config(const std::string& out_dir, const util::Options& given);

}  // namespace attic::train
