#include "train/out_of_memory.h"

namespace attic::train {

using namespace util;

std::string model_size_settings(const TrainConfig& cfg) {
  return "model=" + cfg.model + " n_layer=" + std::to_string(cfg.n_layer) +
         " n_head=" + std::to_string(cfg.n_head) + " n_embd=" + std::to_string(cfg.n_embd) +
         " block_size=" + std::to_string(cfg.block_size);
}

std::string step_size_settings(const TrainConfig& cfg) {
  return model_size_settings(cfg) + " batch_size=" + std::to_string(cfg.batch_size);
}

void fail_out_of_memory(const std::string& doing, const std::string& settings,
                        const std::string& what) {
  fail(doing, " with ", settings, " ran out of memory: ", what);
}

}  // namespace attic::train
