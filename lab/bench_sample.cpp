#include "lab/bench_sample.h"

#include <chrono>
#include <cstdio>

#include "models/gpt.h"
#include "tensor/threads.h"

namespace attic::lab {


namespace {

// Tokens per second of m.generate(prompt, n) with or without the cache: one untimed run of
// a few tokens, then the best of two timed runs.
double tokens_per_second(models::GPT& m, int64_t n, bool use_cache) {
  const Tensor prompt = zeros({1, 1}, TensorOptions(kInt64));
  Generator gen(1);
  (void)m.generate(prompt, 4, 1.0, 0, &gen, use_cache);
  double best = 0;
  for (int run = 0; run < 2; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    (void)m.generate(prompt, n, 1.0, 0, &gen, use_cache);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::max(best, double(n) / s);
  }
  return best;
}

}  // namespace

int bench_sample(int64_t new_tokens, int64_t block_size, int64_t threads, bool json) {
  ATTIC_CHECK(new_tokens > 0 && block_size > 1, "bench sample: new_tokens must be positive and "
              "block_size > 1, got ", new_tokens, " and ", block_size);
  if (threads > 0) set_num_threads(int(threads));
  const int64_t window = block_size - 1;  // new tokens before the crop starts
  if (!json)
    std::printf("GPT 4 layers x 4 heads, C = 128, block_size %lld, batch 1, %d threads: tokens/s\n"
                "%-12s %8s %12s %12s %8s   %12s %12s %8s\n",
                (long long)block_size, num_threads(), "attention", "tokens", "cache",
                "recompute", "speedup", "first window", "recompute", "speedup");
  for (const models::AttentionEntry& e : models::attention_registry()) {
    models::GPTConfig c;
    c.block_size = block_size;
    c.vocab_size = 65;
    c.n_layer = 4;
    c.n_head = 4;
    c.n_embd = 128;
    c.bias = false;
    c.attention = e.name;
    manual_seed(1337);
    models::GPT m(c);
    const bool has_state = m.start_decoding().has_value();
    const double cached = tokens_per_second(m, new_tokens, true);
    const double recomputed = tokens_per_second(m, new_tokens, false);
    const double cached_w = tokens_per_second(m, window, true);
    const double recomputed_w = tokens_per_second(m, window, false);
    if (json)
      std::printf("{\"bench\": \"sample\", \"attention\": \"%s\", \"has_state\": %s, "
                  "\"block_size\": %lld, \"threads\": %d, \"new_tokens\": %lld, "
                  "\"tokens_per_s_cache\": %.0f, \"tokens_per_s_recompute\": %.0f, "
                  "\"window_tokens\": %lld, \"window_tokens_per_s_cache\": %.0f, "
                  "\"window_tokens_per_s_recompute\": %.0f}\n",
                  e.name.c_str(), has_state ? "true" : "false", (long long)block_size,
                  num_threads(), (long long)new_tokens, cached, recomputed, (long long)window,
                  cached_w, recomputed_w);
    else
      std::printf("%-12s %8lld %12.0f %12.0f %7.2fx   %12.0f %12.0f %7.2fx\n", e.name.c_str(),
                  (long long)new_tokens, cached, recomputed, cached / recomputed, cached_w,
                  recomputed_w, cached_w / recomputed_w);
    std::fflush(stdout);
  }
  if (!json)
    std::printf("past block_size every position's wpe moves, so each token recomputes its window "
                "either way;\nthe cache pays within the first window (\"first window\": the first "
                "%lld tokens)\n", (long long)window);
  return 0;
}

}  // namespace attic::lab
