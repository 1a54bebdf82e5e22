// One finished run of attic compare: what its table row, its claims and its picture read.
#pragma once

#include <optional>
#include <string>

#include "train/train_run.h"
#include "data/digit_mul.h"

namespace attic::lab {

struct CompareRow {
  std::string name;       // the run's name in the compare config
  std::string attention;  // its attention, with options when it has any: "linformer(k=64)"
  train::RunResult result;
  std::optional<ProductScore> score;  // with task = digit_mul: eval --task=digit_mul's
};

}  // namespace attic::lab
