// One training run of nanoGPT's train.py loop, as `attic train` and `attic compare` use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "util/options.h"
#include "train/train_config.h"

namespace attic::train {

// One estimate_loss: at iteration `iter`, after `seconds` of training steps (evaluation time
// not counted, so that runs compare by how fast they train).
struct EvalPoint {
  int64_t iter = 0;
  double seconds = 0;
  double train = 0, val = 0;
};

// What a run measured: the figures of attic compare's table and the lines of its picture.
struct RunResult {
  int64_t params = 0;        // the model's count as nanoGPT reports it (no position table)
  int64_t iters = 0;         // the last iteration reached
  int64_t epochs = 0;        // with max_epochs: the epochs trained, ⌊iters / iterations per epoch⌋
  std::vector<EvalPoint> evals;
  double best_val = 0;       // best val loss seen at an eval
  double ms_per_iter = 0;    // mean training-step time, the first (warm-up) step left out
  double tokens_per_s = 0;   // tokens per training step / ms_per_iter
  size_t peak_bytes = 0;     // attic's allocator at most, beyond what was held before the run
  std::string device;        // "cpu" or "cuda"
  // The val split's characters per token: 1 for a char dataset, more for BPE tokens, 0 when
  // unknown. A val loss in nats per token / ln 2 / this = bits per character.
  double val_chars_per_token = 1.0;
};

// Shown on the live progress line before the iteration ("2/3 linear_elu | iter 10/2000 ...").
struct RunHooks {
  std::string label;
};

// Trains cfg (validated; init_from "scratch" or "resume", as attic train does): evaluates
// and checkpoints every eval_interval iterations into cfg.out_dir with loss.svg, logs every
// log_interval, and prints "done: ..." and "peak memory: ..." at the end. opts is the
// Options bound to cfg: a checkpoint stores opts.dump() as its config.
RunResult train_run(const TrainConfig& cfg, const util::Options& opts, const RunHooks& hooks = {});

}  // namespace attic::train
