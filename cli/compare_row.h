// One finished run of attic compare: what its table row, its claims and its picture read.
#pragma once

#include <optional>
#include <string>

#include "cli/train_run.h"
#include "data/digit_mul.h"

namespace attic::cli {

struct CompareRow {
  std::string name;       // the run's name in the compare config
  std::string attention;  // its attention, with options when it has any: "linformer(k=64)"
  RunResult result;
  std::optional<ProductScore> score;  // with task = digit_mul: eval --task=digit_mul's
};

}  // namespace attic::cli
