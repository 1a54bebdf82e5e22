// A training checkpoint in out_dir: the model in ckpt.safetensors (nanoGPT's parameter
// names; metadata holds the config, the attention, vocabulary, iteration, best val loss and
// RNG state) and
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
  std::string attention = "softmax";  // every block's attention (nn/attention/registry.h)
  std::string attention_options;      // and its options, "key=value,..."
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
// Loads the weights into model (strict) and returns the metadata. attention and
// attention_options are those the model was built with: the checkpoint must record the
// same, as two attentions may name their tensors alike (softmax and linear attention both
// hold c_attn and c_proj) and a strict load alone would not tell them apart.
CheckpointInfo load_model(const std::string& out_dir, nn::Module& model,
                          const std::string& attention, const std::string& attention_options);
// Loads optim.safetensors; checks that it belongs to the same iteration as the model.
void load_optimizer(const std::string& out_dir, optim::Optimizer& opt, int64_t iter_num);

}  // namespace attic::cli
