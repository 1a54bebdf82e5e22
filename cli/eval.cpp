// attic eval: the train and val loss of out_dir's checkpoint, by the estimate_loss that
// `attic train` logs: with the checkpoint's config and iteration it prints the losses that
// training printed at the step it saved. A flag overrides the dataset, the number or size
// of the batches, the seed, the device or the threads.
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/device.h"
#include "cli/estimate_loss.h"
#include "cli/restore.h"
#include "data/text_dataset.h"
#include "tensor/threads.h"

namespace attic::cli {

int eval(const std::vector<std::string>& args) {
  TrainConfig flags;
  Options all;
  flags.bind(all);
  Options opts = all.only({"out_dir", "dataset", "eval_iters", "batch_size", "seed", "device", "threads"});
  std::ostringstream quiet;
  if (!parse_command_line(opts, args, "usage: attic eval [--key=value ...]\n"
                          "Each key but out_dir defaults to the checkpoint's value.", quiet))
    return 0;
  device_from_flag(flags.device);  // a device this machine lacks is the error, before any reading
  Restored r = restore(flags.out_dir, opts);
  const TrainConfig& cfg = r.config;
  const Device device = device_from_flag(cfg.device);
  if (cfg.threads > 0) set_num_threads(int(cfg.threads));
  const std::string dataset = cfg.dataset_path();
  const TextDataset data = TextDataset::from_file(dataset);
  ATTIC_CHECK(data.tokenizer().vocabulary() == r.tokenizer->vocabulary(), "eval: ", dataset,
              " has a different vocabulary than the checkpoint in ", cfg.out_dir);
  r.model->module().to(device);
  const Losses losses = estimate_loss(*r.model, data, cfg, r.info.iter_num, device);
  std::printf("iter %lld checkpoint: train loss %.4f, val loss %.4f\n", (long long)r.info.iter_num,
              losses.train, losses.val);
  return 0;
}

}  // namespace attic::cli
