#include "lab/bench_gpt2.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdio>

#include "models/gpt/gpt2_folder.h"
#include "optim/optim.h"
#include "tensor/cpu/cpu_backend.h"
#include "tensor/memory.h"
#include "tensor/threads.h"

namespace attic::lab {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The process's peak resident set, what `/usr/bin/time -v` reports as maximum resident.
double max_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
#ifdef __APPLE__
  return double(u.ru_maxrss) / (1024.0 * 1024.0);  // bytes on macOS
#else
  return double(u.ru_maxrss) / 1024.0;  // KiB on Linux
#endif
}

std::unique_ptr<models::GPT> gpt2_model(const Gpt2BenchOptions& o) {
  if (!o.gpt2_dir.empty()) return models::load_gpt2(o.gpt2_dir, "huggingface");
  models::GPTConfig c;  // GPT-2 124M
  c.block_size = 1024;
  c.vocab_size = 50257;
  c.n_layer = 12;
  c.n_head = 12;
  c.n_embd = 768;
  c.bias = true;
  c.gelu = "tanh";
  manual_seed(1337);
  return std::make_unique<models::GPT>(c);
}

}  // namespace

int bench_gpt2(const Gpt2BenchOptions& o) {
  ATTIC_CHECK(o.what == "sample" || o.what == "step" || o.what == "both", "bench gpt2: what must be sample, step "
              "or both, got '", o.what, "'");
  if (o.threads > 0) set_num_threads(int(o.threads));
  if (o.cache_mib >= 0) cpu::set_cache_limit(size_t(o.cache_mib) << 20);
  std::unique_ptr<models::GPT> m = gpt2_model(o);
  m->to(o.device);
  const models::GPTConfig& c = m->config;
  ATTIC_CHECK(o.prompt >= 1 && o.prompt + o.new_tokens <= c.block_size && o.block_size <= c.block_size,
              "bench gpt2: prompt + new_tokens (", o.prompt + o.new_tokens, ") and block_size (", o.block_size,
              ") must fit the model's ", c.block_size, " positions");
  Generator gen(42);
  const DType compute = parse_autocast_dtype("bench gpt2: dtype", o.dtype);
  ATTIC_CHECK(compute != kFloat16, "bench gpt2: dtype = float16: attic computes no float16 products");
  // GPU kernels run asynchronously: reading one element of a result back waits for the
  // work queued before it, so a time taken after it counts the whole step.
  const auto sync = [&](const Tensor& t) {
    if (o.device != Device::CPU) (void)t.reshape({-1}).narrow(0, 0, 1).item<double>();
  };
  const char* dev = device_name(o.device);
  // The model's products in bfloat16 (dtype = bfloat16), its weights float32.
  const AutocastGuard cast(compute);
  if (o.what != "step") {
    m->eval();
    const Tensor prompt = randint(0, c.vocab_size, {1, o.prompt}).to(o.device);
    reset_peak_memory(o.device);
    sync(m->generate(prompt, 4, 0.8, 200, &gen, true));  // warm-up: the allocator's first blocks
    const auto t0 = Clock::now();
    const Tensor out = m->generate(prompt, o.new_tokens, 0.8, 200, &gen, true);
    sync(out);
    const double s = seconds_since(t0);
    const double tps = double(o.new_tokens) / s;
    const double peak = double(memory_stats(o.device).peak) / (1024.0 * 1024.0);
    if (o.json)
      std::printf("{\"bench\": \"gpt2_sample\", \"dtype\": \"%s\", \"device\": \"%s\", \"threads\": %d, "
                  "\"prompt\": %lld, \"new_tokens\": %lld, \"seconds\": %.4f, \"tokens_per_s\": %.3f, "
                  "\"peak_tensor_mib\": %.1f, \"max_rss_mib\": %.1f}\n",
                  o.dtype.c_str(), dev, num_threads(), (long long)o.prompt, (long long)o.new_tokens, s, tps,
                  peak, max_rss_mib());
    else
      std::printf("gpt2 sample (%s, %s): %lld-token prompt, %lld new tokens with the KV cache, batch 1, %d threads: "
                  "%.2f s, %.2f tokens/s (tensors peak %.0f MiB, process peak %.0f MiB)\n",
                  o.dtype.c_str(), dev, (long long)o.prompt, (long long)o.new_tokens, num_threads(), s, tps,
                  peak, max_rss_mib());
    std::fflush(stdout);
  }
  if (o.what != "sample") {
    m->train();
    optim::AdamW opt = m->configure_optimizers(0.1, 3e-5, {0.9, 0.95});
    reset_peak_memory(o.device);
    double total = 0;
    for (int64_t i = 0; i < o.warmup + o.iters; ++i) {
      const Tensor x = randint(0, c.vocab_size, {o.batch_size, o.block_size}).to(o.device);
      const Tensor y = randint(0, c.vocab_size, {o.batch_size, o.block_size}).to(o.device);
      sync(x);
      sync(y);
      const auto t0 = Clock::now();
      m->forward(x, y).loss.backward();
      optim::clip_grad_norm_(m->parameters(), 1.0);
      opt.step();
      opt.zero_grad();
      sync(m->parameters().front());
      if (i >= o.warmup) total += seconds_since(t0);
    }
    const double ms = 1000.0 * total / double(o.iters);
    const double peak = double(memory_stats(o.device).peak) / (1024.0 * 1024.0);
    if (o.json)
      std::printf("{\"bench\": \"gpt2_step\", \"dtype\": \"%s\", \"device\": \"%s\", \"threads\": %d, "
                  "\"batch_size\": %lld, \"block_size\": %lld, \"ms_per_step\": %.1f, \"peak_tensor_mib\": %.1f, "
                  "\"max_rss_mib\": %.1f}\n",
                  o.dtype.c_str(), dev, num_threads(), (long long)o.batch_size, (long long)o.block_size, ms, peak,
                  max_rss_mib());
    else
      std::printf("gpt2 finetune step (%s, %s): batch %lld, T %lld, AdamW with clipping, %d threads: %.0f ms/step "
                  "(tensors peak %.0f MiB, process peak %.0f MiB)\n",
                  o.dtype.c_str(), dev, (long long)o.batch_size, (long long)o.block_size, num_threads(), ms, peak,
                  max_rss_mib());
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace attic::lab
