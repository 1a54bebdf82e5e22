// attic bench attention: softmax vs linear attention as the sequence grows.
#pragma once

#include <cstdint>

namespace attic::lab {

// Self-attention on x [1, n, 64] with one head, n = 256, 512, …, max_n (softmax only up to
// softmax_max_n): seconds of the forward (no graph) and of forward + backward, peak bytes
// of tensor storage during forward + backward, and t(2n)/t(n). threads 0: all.
int bench_attention(int64_t max_n, int64_t softmax_max_n, int64_t threads, bool json);

}  // namespace attic::lab
