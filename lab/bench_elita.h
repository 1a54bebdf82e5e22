// attic bench elita: ELiTA's attention against the GPT's softmax attention as the sequence
// grows, to see that ELiTA's cost is linear in N.
#pragma once

#include <cstdint>

namespace attic::lab {

// x [1, N, 128] through Attention2 (H = 4, A = 32, P = 16, stable numerics) and through the
// GPT's causal softmax attention (4 heads) for N = 1024, 2048, …, max_n (softmax only up to
// softmax_max_n): seconds of the forward, of forward + backward, peak bytes of tensor
// storage during forward + backward, bytes per token, and t(2N)/t(N). threads 0: all.
int bench_elita(int64_t max_n, int64_t softmax_max_n, int64_t threads, bool json);

}  // namespace attic::lab
