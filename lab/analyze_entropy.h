// attic analyze entropy: the Rényi entropy of every block's output, for one or more
// checkpoints, in the way of the notebook of Vadimbuildercxx/reflex_attention.
//
//   attic analyze entropy --out_dir=out/classic --out_dir=out/route [--centered]
//
// Prompt sets: n random problems "a*b" of the checkpoints' digit-multiplication data (T = 9
// for 4 digits; for any other text, n random windows of 9 characters of its val split),
// then the first n_long of them extended by each model's own samples (temperature 1, no
// top-k) by 30 and by 100 tokens (T = 39 and 109), so each model gets its own long sets. A
// set longer than a model's block_size is skipped with a note. For every set, model and
// block: the mean and spread (standard deviation) of S_α over the prompts
// (lab/renyi_entropy.h), printed as a table, written beside the picture as
// Markdown, and drawn in one SVG with a panel per set and a line per model.
#pragma once

#include <string>
#include <vector>

namespace attic::lab {

int analyze_entropy(const std::vector<std::string>& args);

}  // namespace attic::lab
