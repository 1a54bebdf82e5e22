#include "train/estimate_loss.h"

namespace attic::train {

using namespace util;

Losses estimate_loss(models::LanguageModel& lm, const Dataset& data, const TrainConfig& cfg,
                     int64_t iter, Device device) {
  NoGradGuard no_grad;
  const DType compute = cfg.compute_dtype();
  const AutocastGuard cast(compute);
  const bool was_training = lm.is_training();
  lm.eval();
  double mean[2] = {0, 0};
  for (Split split : {Split::Train, Split::Val}) {
    // One generator per (seed, iteration, split).
    Generator gen(uint64_t(cfg.seed) * 1000003u + uint64_t(iter) + (split == Split::Val ? 7919u : 0u));
    double total = 0;
    for (int64_t k = 0; k < cfg.eval_iters; ++k) {
      Batch b = data.get_batch(split, cfg.batch_size, cfg.block_size, gen);
      total += lm.loss(b.x.to(device), b.y.to(device)).item<double>();
    }
    mean[split == Split::Val] = total / double(cfg.eval_iters);
  }
  lm.train(was_training);
  return {mean[0], mean[1]};
}

}  // namespace attic::train
