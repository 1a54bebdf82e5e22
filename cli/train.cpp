// attic train: nanoGPT's train.py, the command. The loop is train/train_run.cpp.
#include <iostream>
#include <string>
#include <vector>

#include "train/checkpoint.h"
#include "util/command_line.h"
#include "cli/commands.h"
#include "models/registry.h"
#include "train/restore.h"
#include "train/train_run.h"

namespace attic::cli {

using namespace train;
using namespace util;

int train(const std::vector<std::string>& args) {
  TrainConfig cfg;
  Options opts;
  cfg.bind(opts);
  if (!parse_command_line(opts, args, "usage: attic train [config files] [--key=value ...]",
                          std::cout, /*config_files=*/true, models::attention_options_usage()))
    return 0;
  if (cfg.init_from == "resume") {
    // opts stays bound to cfg
    cfg = resume_config(cfg.out_dir, opts);
  }
  if (cfg.from_gpt2()) cfg.take_gpt2_shape(opts);  // the folder's shape, before anything is checked
  cfg.validate();
  train_run(cfg, opts);
  return 0;
}

}  // namespace attic::cli
