// attic bench linformer: Linformer attention (Wang et al. 2020, "Linformer: Self-Attention
// with Linear Complexity"; the linformer-pytorch package, tatp22/linformer-pytorch) against
// the GPT's softmax attention as the sequence grows, to see that its cost is linear in n;
// and, with --checkpoints, what the package's checkpoint levels C0, C1 and C2 trade.
#pragma once

#include <cstdint>
#include <string>

namespace attic::lab {

// x [1, n, 64] through one LinformerAttention (C = 64, h = 4, d = 16, k = 128, learnable E
// and F shared headwise, dropout 0, input_size = n) with causal none (the paper's Linformer) and
// causal prefix (attic's causal mode), and through the GPT's causal softmax attention (4
// heads) for n = 4096, 8192, …, max_n (softmax only up to softmax_max_n): seconds of the
// forward, of forward + backward, peak bytes of tensor storage during forward + backward,
// bytes per token, and t(2n)/t(n). causal "none" or "prefix" runs only that Linformer (and
// softmax still up to softmax_max_n); "both", the two. threads 0: all.
int bench_linformer(int64_t max_n, int64_t softmax_max_n, const std::string& causal, int64_t threads, bool json);

// x [1, n, 128] through a Linformer stack (depth 12, C = 128, h = 4, k = 128, dim_ff 256,
// dropout 0.1 and 0.1, causal none, sharing headwise) at checkpoint levels C0, C1 and C2 in
// three alternating rounds: the median seconds of forward + backward of sum(y·y), the peak
// bytes of tensor storage, and both as ratios to C0. threads 0: all.
int bench_linformer_checkpoints(int64_t n, int64_t threads, bool json);

}  // namespace attic::lab
