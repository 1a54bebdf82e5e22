// attic eval: the train and val loss of out_dir's checkpoint, averaged over eval_iters
// batches per split, on the dataset it was trained on (or --dataset=PATH).
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/device.h"
#include "cli/restore.h"
#include "data/text_dataset.h"
#include "tensor/threads.h"

namespace attic::cli {

int eval(const std::vector<std::string>& args) {
  std::string out_dir = "out", dataset, device = "cpu";
  int64_t eval_iters = 0, batch_size = 0, seed = 1337, threads = 0;
  Options opts;
  opts.bind("out_dir", out_dir, "the checkpoint's folder");
  opts.bind("dataset", dataset, "text file (default: the one it was trained on)");
  opts.bind("eval_iters", eval_iters, "batches per split (0: the checkpoint's)");
  opts.bind("batch_size", batch_size, "(0: the checkpoint's)");
  opts.bind("seed", seed);
  opts.bind("device", device, "cpu or cuda");
  opts.bind("threads", threads, "CPU threads (0: all)");
  std::ostringstream quiet;
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << "usage: attic eval [--key=value ...]\nkeys:\n" << opts.usage();
      return 0;
    }
    opts.apply_flag(a, quiet);
  }
  const Device dev = device_from_flag(device);
  if (threads > 0) set_num_threads(int(threads));
  Restored r = restore(out_dir);
  const TrainConfig& cfg = r.config;
  if (dataset.empty()) dataset = cfg.dataset.empty() ? default_dataset_path() : cfg.dataset;
  if (eval_iters <= 0) eval_iters = cfg.eval_iters;
  if (batch_size <= 0) batch_size = cfg.batch_size;
  const TextDataset data = TextDataset::from_file(dataset);
  ATTIC_CHECK(data.tokenizer().vocabulary() == r.tokenizer->vocabulary(), "eval: ", dataset,
              " has a different vocabulary than the checkpoint in ", out_dir);
  r.model->module().to(dev);
  NoGradGuard no_grad;
  double loss[2] = {0, 0};
  for (Split split : {Split::Train, Split::Val}) {
    Generator gen(uint64_t(seed) + (split == Split::Val ? 1u : 0u));
    for (int64_t k = 0; k < eval_iters; ++k) {
      Batch b = data.get_batch(split, batch_size, cfg.block_size, gen);
      loss[split == Split::Val] += r.model->loss(b.x.to(dev), b.y.to(dev)).item<double>();
    }
  }
  std::printf("iter %lld checkpoint: train loss %.4f, val loss %.4f\n", (long long)r.info.iter_num,
              loss[0] / double(eval_iters), loss[1] / double(eval_iters));
  return 0;
}

}  // namespace attic::cli
