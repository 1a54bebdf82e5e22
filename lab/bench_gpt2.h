// attic bench gpt2: GPT-2 124M's shapes (12 layers, 12 heads, C = 768, block 1024, vocab
// 50257, biases, tanh GELU) at random init, or a GPT-2 folder's weights, timed the two ways
// its users run it: sampling with the KV cache, and a finetune step.
#pragma once

#include <cstdint>
#include <string>

#include "tensor/dtype.h"

namespace attic::lab {

struct Gpt2BenchOptions {
  std::string what = "both";     // sample, step or both
  std::string gpt2_dir;          // empty: random weights of GPT-2 124M's shapes
  int64_t prompt = 256;          // sample: prompt tokens, batch 1
  int64_t new_tokens = 256;      // sample: tokens drawn after it (temperature 0.8, top_k 200)
  int64_t block_size = 1024;     // step: T
  int64_t batch_size = 1;        // step: B (sampling is batch 1)
  Device device = Device::CPU;   // where the model, its inputs and the step run
  int64_t iters = 3, warmup = 1; // step: timed and untimed steps
  int64_t threads = 0;
  // The CPU allocator's cache of freed blocks, MiB (tensor/cpu/cpu_backend.h); -1: its
  // default, the high-water mark of live bytes.
  int64_t cache_mib = -1;
  std::string dtype = "float32";  // or bfloat16: sampling and the step under autocast
  bool json = false;
};

// Prints tokens/s of sampling (prompt and draws together, the prompt's forward included, as
// transformers' generate times it) and ms per AdamW step with gradient clipping, each with
// the device allocator's peak bytes and the process's peak resident memory.
int bench_gpt2(const Gpt2BenchOptions& o);

}  // namespace attic::lab
