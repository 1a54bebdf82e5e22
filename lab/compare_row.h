// One finished run of attic compare at one seed: what its table row, its claims and its
// picture read. A compare with --seeds=N has N rows of each run's name, one per seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "train/train_run.h"
#include "data/digit_mul.h"

namespace attic::lab {

struct CompareRow {
  std::string name;       // the run's name in the compare config
  std::string attention;  // its attention, with options when it has any: "linformer(k=64)"
  train::RunResult result;
  std::optional<ProductScore> score;  // with task = digit_mul: eval --task=digit_mul's
  int64_t seed = 0;                   // the seed it trained with
  // The max_iters its compare config gives it before the command line's flags: a claim on a
  // run that trained fewer iterations than its config asks for is not judged. 0: unknown.
  int64_t config_iters = 0;
  int64_t config_epochs = 0;  // the same for a config in epochs (max_epochs)
};

// The runs' names in the order they first appear, and the rows (seeds) of one name.
std::vector<std::string> run_names(const std::vector<CompareRow>& rows);
std::vector<const CompareRow*> rows_of(const std::vector<CompareRow>& rows, const std::string& name);

}  // namespace attic::lab
