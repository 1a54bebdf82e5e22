#include "train/train_batch.h"

#include "tensor/random.h"

namespace attic::train {

Batch train_batch(const TrainConfig& cfg, const Dataset& data, int64_t iter, int64_t micro) {
  if (cfg.batches == "shared")
    return data.get_batch(Split::Train, cfg.batch_size, cfg.block_size, default_generator());
  // One 64-bit seed per (seed, iteration, micro-batch), distinct for seeds below 2^24 and
  // iterations and micro-batches below 2^20; the generator spreads it through splitmix64, so
  // neighbouring seeds give unrelated streams. The constant keeps it apart from the plain
  // small seeds estimate_loss uses.
  Generator gen((uint64_t(cfg.seed) << 40) ^ (uint64_t(iter) << 20) ^ uint64_t(micro) ^ 0x5851F42D4C957F2Dull);
  return data.get_batch(Split::Train, cfg.batch_size, cfg.block_size, gen);
}

}  // namespace attic::train
