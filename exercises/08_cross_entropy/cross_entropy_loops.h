// Chapter 8 exercise: cross-entropy as loops over floats, forward and backward.
#pragma once

#include <cstdint>
#include <vector>

struct CrossEntropyResult {
  float loss;                  // the mean over the rows whose target is not ignore_index
  std::vector<float> dlogits;  // [N, V] row-major: dloss/dlogits
};

// logits [N, V] row-major, targets [N] (each in [0, V) or equal to ignore_index), with
// N = targets.size(); count = the number of rows not ignored:
//   loss = -(1/count) Σ_{n kept} log softmax(logits[n])[t_n]
//   dloss/dlogits[n, c] = (softmax(logits[n])[c] - δ(c, t_n)) / count, 0 in ignored rows
CrossEntropyResult cross_entropy_loops(const std::vector<float>& logits,
                                       const std::vector<int64_t>& targets, int64_t V,
                                       int64_t ignore_index = -100);
