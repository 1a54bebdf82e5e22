// attic eval: the train and val loss of out_dir's checkpoint, by the estimate_loss that
// `attic train` logs: with the checkpoint's config and iteration it prints the losses that
// training printed at the step it saved. A flag overrides the dataset, the number or size
// of the batches, the seed, the device or the threads.
#include <algorithm>
#include <cmath>
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
#include "models/gpt/gpt2_folder.h"
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
  const std::vector<std::string> train_keys = {"out_dir", "dataset", "eval_iters", "batch_size", "seed", "device",
                                               "threads", "init_from", "gpt2_dir", "block_size", "dtype", "compile"};
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
  // init_from = gpt2 ... evaluates GPT-2 itself, as nanoGPT's config/eval_gpt2.py does.
  const bool gpt2 = models::is_gpt2_name(flags.init_from);
  ATTIC_CHECK(gpt2 || flags.init_from == "scratch" || flags.init_from == "resume", "eval: init_from must be a GPT-2 "
              "(gpt2, gpt2-medium, gpt2-large, gpt2-xl, huggingface) or left out for out_dir's checkpoint, got '",
              flags.init_from, "'");
  if (gpt2) {
    flags.take_gpt2_shape(all);
    flags.validate();
  }
  Restored r = gpt2 ? restore_gpt2(flags) : restore(flags.out_dir, given);
  const TrainConfig& cfg = r.config;
  cfg.print_notes(std::cout);
  const Device device = device_from_flag(cfg.device);
  if (cfg.threads > 0) set_num_threads(int(cfg.threads));
  const std::string dataset = cfg.dataset_path();
  const std::unique_ptr<Dataset> data = open_dataset(dataset);
  cfg.check_splits(*data);
  const std::string model_is = gpt2 ? "GPT-2 of " + cfg.gpt2_dir : "the checkpoint in " + cfg.out_dir;
  if (data->has_tokenizer())
    ATTIC_CHECK(data->tokenizer().same_as(*r.tokenizer), "eval: ", dataset, " has another tokenizer than ", model_is);
  ATTIC_CHECK(data->vocab_size() <= r.tokenizer->vocab_size(), "eval: ", dataset, " holds ids up to ",
              data->vocab_size() - 1, ", beyond the vocabulary of ", r.tokenizer->vocab_size(), " of ", model_is);
  r.model->to(device);
  if (task == "digit_mul") {
    const auto* text = dynamic_cast<const TextDataset*>(data.get());
    ATTIC_CHECK(text != nullptr, "eval: task digit_mul needs a text dataset, not the token folder ", dataset);
    mul.seed = seed_given ? cfg.seed : 1;
    eval_digit_mul(r, *text, mul);
    return 0;
  }
  const Losses losses = naming_settings("eval: evaluating", step_size_settings(cfg), [&] {
    return estimate_loss(*r.model, *data, cfg, r.info.iter_num, device);
  });
  std::printf("iter %lld %s: train loss %.4f, val loss %.4f\n", (long long)r.info.iter_num,
              gpt2 ? cfg.init_from.c_str() : "checkpoint", losses.train, losses.val);
  // A loss in nats per token, as bits per character of the text: tokens of several characters
  // each carry more of them, so only bits per character compares a char model with a BPE one.
  const double cpt = data->chars_per_token(Split::Val);
  if (cpt > 0)
    std::printf("val: %.4f bits per character (%.4f characters per token)\n", losses.val / std::log(2.0) / cpt, cpt);
  return 0;
}

}  // namespace attic::cli
