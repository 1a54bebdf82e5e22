// A training checkpoint in out_dir: the model in ckpt.safetensors (nanoGPT's parameter
// names; metadata holds the config, vocabulary, iteration, best val loss and RNG state) and
// the optimizer in optim.safetensors. Each file is written atomically.
#pragma once

#include <array>
#include <map>
#include <string>

#include "models/gpt.h"
#include "optim/optimizer.h"

namespace attic::cli {

struct CheckpointInfo {
  std::string config;       // "key = value" lines of the TrainConfig that made it
  std::string vocabulary;   // the tokenizer's characters in id order
  int64_t iter_num = 0;
  double best_val_loss = 0;
  std::array<uint64_t, 4> rng{};  // the default generator's state
};

std::string model_path(const std::string& out_dir);
std::string optimizer_path(const std::string& out_dir);

void save_checkpoint(const std::string& out_dir, const nn::Module& model,
                     const optim::Optimizer& opt, const CheckpointInfo& info);
// Reads ckpt.safetensors' metadata (no tensors are kept); throws if anything is missing.
CheckpointInfo read_checkpoint_info(const std::string& out_dir);
// Loads the weights into model (strict) and returns the metadata.
CheckpointInfo load_model(const std::string& out_dir, nn::Module& model);
// Loads optim.safetensors; checks that it belongs to the same iteration as the model.
void load_optimizer(const std::string& out_dir, optim::Optimizer& opt, int64_t iter_num);

}  // namespace attic::cli
