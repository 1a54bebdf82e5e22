// attic bench sample: generation speed of the GPT with and without the attentions' step
// states (KV cache, RNN state), for every registered attention.
#pragma once

#include <cstdint>

namespace attic::lab {

// The laptop recipe's GPT (4 layers, 4 heads, width 128, vocab 65) with context block_size,
// freshly initialized, generating new_tokens tokens after a one-token prompt, batch 1:
// tokens per second with the cache and by recomputing the context, over all new_tokens and
// over the first block_size − 1 (before the window starts to slide, where the cache can
// help). threads 0: all.
int bench_sample(int64_t new_tokens, int64_t block_size, int64_t threads, bool json);

}  // namespace attic::lab
