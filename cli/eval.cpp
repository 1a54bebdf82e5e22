// attic eval: the train and val loss of out_dir's checkpoint, by the estimate_loss that
// `attic train` logs: with the checkpoint's config and iteration it prints the losses that
// training printed at the step it saved. A flag overrides the dataset, the number or size
// of the batches, the seed, the device or the threads.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

#include "util/command_line.h"
#include "cli/commands.h"
#include "util/device_flag.h"
#include "train/estimate_loss.h"
#include "lab/eval_digit_mul.h"
#include "train/out_of_memory.h"
#include "train/restore.h"
#include "data/text_dataset.h"
#include "tensor/threads.h"

namespace attic::cli {

using namespace train;
using namespace util;
using lab::DigitMulEval;
using lab::eval_digit_mul;

int eval(const std::vector<std::string>& args) {
  TrainConfig flags;
  Options all;
  flags.bind(all);
  const std::vector<std::string> train_keys = {"out_dir", "dataset", "eval_iters", "batch_size",
                                               "seed", "device", "threads"};
  Options opts = all.only(train_keys);
  std::string task;
  DigitMulEval mul;
  opts.bind("task", task, "'' (the train and val loss) or digit_mul (sample answers to held-out problems)");
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  opts.bind("n", mul.n, "digit_mul: problems").int_range(1, kMax);
  opts.bind("temperature", mul.temperature, "digit_mul: sampling temperature (0 greedy)")
      .float_range(0, std::numeric_limits<double>::infinity());
  opts.bind("top_k", mul.top_k, "digit_mul: keep the k most likely tokens (0: all)").int_range(0, kMax);
  opts.bind("show", mul.show, "digit_mul: problems printed with their answers").int_range(0, kMax);
  std::ostringstream quiet;
  if (!parse_command_line(opts, args, "usage: attic eval [--key=value ...]\n"
                          "Each key but out_dir defaults to the checkpoint's value; --task=digit_mul "
                          "scores sampled products (seed 1 unless given).", quiet))
    return 0;
  ATTIC_CHECK(task.empty() || task == "digit_mul", "eval: task must be digit_mul or empty, got '", task, "'");
  bool seed_given = false;
  Options given = all.only(train_keys);  // what overrides the checkpoint's config
  for (const auto& [k, v] : opts.assigned()) {
    seed_given = seed_given || k == "seed";
    if (std::find(train_keys.begin(), train_keys.end(), k) != train_keys.end()) given.set(k, v);
  }
  device_from_flag(flags.device);  // a device this machine lacks is the error, before any reading
  Restored r = restore(flags.out_dir, given);
  const TrainConfig& cfg = r.config;
  const Device device = device_from_flag(cfg.device);
  if (cfg.threads > 0) set_num_threads(int(cfg.threads));
  const std::string dataset = cfg.dataset_path();
  const TextDataset data = TextDataset::from_name(dataset);
  cfg.check_splits(data);
  ATTIC_CHECK(data.tokenizer().vocabulary() == r.tokenizer->vocabulary(), "eval: ", dataset,
              " has a different vocabulary than the checkpoint in ", cfg.out_dir);
  r.model->to(device);
  if (task == "digit_mul") {
    mul.seed = seed_given ? cfg.seed : 1;
    eval_digit_mul(r, data, mul);
    return 0;
  }
  const Losses losses = naming_settings("eval: evaluating", step_size_settings(cfg), [&] {
    return estimate_loss(*r.model, data, cfg, r.info.iter_num, device);
  });
  std::printf("iter %lld checkpoint: train loss %.4f, val loss %.4f\n", (long long)r.info.iter_num,
              losses.train, losses.val);
  return 0;
}

}  // namespace attic::cli
