// A RunResult as JSON and back: each compare run's result.json, and compare.json's rows.
#pragma once

#include <string>

#include "train/train_run.h"
#include "util/json.h"

namespace attic::lab {

// {"params": ..., "iters": ..., "best_val": ..., "ms_per_iter": ..., "tokens_per_s": ...,
//  "peak_memory_bytes": ..., "device": "cpu", "evals": [[iter, seconds, train, val], ...]}
json::Value to_json(const train::RunResult& r);
// The inverse; throws attic::Error naming `what` when a field is missing or of a wrong type.
train::RunResult run_result_from_json(const json::Value& v, const std::string& what);

}  // namespace attic::lab
