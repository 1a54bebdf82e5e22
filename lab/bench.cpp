// attic bench: timings, never tests.
//
//   attic bench gemm [--threads=N] [--dtype=float32|bfloat16] [--json]
//       GFLOP/s of the packed GEMM and of the naive loop, and % of peak, at square sizes and
//       at the laptop recipe's shapes in the forward and the transposed backward layouts;
//       --dtype=bfloat16: the bf16 GEMM against float32's, naming the path it took.
//   attic bench train --preset=cpu|gpu-size [--attention=softmax] [--device=cpu|cuda] [--dtype=]
//                     [--threads=N] [--iters=100] [--products] [--json]
//                     [--batch_size= --block_size= --n_layer= --n_head= --n_embd= --dropout=]
//       ms per training step (forward, backward, clipping, AdamW) of the GPT recipe, or of
//       the preset with any of its shape's fields replaced; page faults per step, the peak
//       memory attic's allocator held (tensor/memory.h) and the process's peak RSS
//       (lab/bench_train.cpp). --products: also the step's matrix products replayed alone
//       after each step (lab/gemm_trace.h), and the step's time over theirs.
//   attic bench train --sweep [--threads=N] [--iters=10]
//       the same at n_embd 128, 256, 384, 768 (block 64) and block 64, 256, 1024 (n_embd 128).
//   attic bench attention [--max_n=4096] [--softmax_max_n=8192] [--threads=N] [--json]
//       time and peak memory of softmax vs linear self-attention, forward and backward,
//       for n = 256, 512, …, max_n, and the growth t(2n)/t(n) (lab/bench_attention.cpp).
//   attic bench sample [--new_tokens=1000] [--block_size=64] [--threads=N] [--json]
//       tokens/s of GPT generation with and without the attentions' step states, for every
//       registered attention (lab/bench_sample.cpp).
//   attic bench elita [--max_n=131072] [--softmax_max_n=16384] [--threads=N] [--json]
//       ELiTA's attention against softmax as N doubles from 1024: time, memory per token,
//       t(2N)/t(N) (lab/bench_elita.cpp).
//   attic bench linformer [--max_n=262144] [--softmax_max_n=16384] [--causal=both]
//                         [--threads=N] [--json]
//       Linformer attention (causal none, prefix, or both) against softmax as n doubles from 4096:
//       time, memory per token, t(2n)/t(n) (lab/bench_linformer.cpp).
//   attic bench linformer --checkpoints [--n=4096] [--threads=N] [--json]
//       a 12-layer Linformer stack at checkpoint levels C0, C1, C2 in alternating rounds:
//       time and peak memory of forward + backward, and their ratios to C0.
//
// Each GEMM figure is the best of several runs, so a busy machine shows its quietest
// moment; a training figure is the median step after a warm-up.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <ctime>

#include "lab/bench_attention.h"
#include "lab/bench_elita.h"
#include "lab/bench_linformer.h"
#include "lab/bench_bpe.h"
#include "lab/bench_gpt2.h"
#include "lab/bench_sample.h"
#include "lab/bench_timer.h"
#include "lab/bench_train.h"
#include "util/command_line.h"
#include "lab/commands.h"
#include "util/device_flag.h"
#include "train/out_of_memory.h"
#include "data/text_dataset.h"
#include "models/gpt.h"
#include "optim/optim.h"
#include "tensor/cpu/cpu_features.h"
#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/gemm.h"
#include "tensor/cpu/gemm_bf16.h"
#include "tensor/cpu/thread_pool.h"  // cpu::parallel_for: the naive GEMM is timed on the pool too
#include "tensor/memory.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

struct GemmCase {
  const char* what;
  int64_t M, N, K;
  bool trans_a, trans_b;  // read A (or B) through transposed strides, as backward does
};

// A case's operands, U(-1, 1) draws, and C; (row stride, column stride) of A [M, K] and
// B [K, N] in the case's layouts.
struct GemmOperands {
  std::vector<float> A, B, C;
  int64_t rsa, csa, rsb, csb;
  GemmOperands(const GemmCase& c, std::mt19937& rng)
      : A(size_t(c.M * c.K)), B(size_t(c.K * c.N)), C(size_t(c.M * c.N)),
        rsa(c.trans_a ? 1 : c.K), csa(c.trans_a ? c.M : 1),
        rsb(c.trans_b ? 1 : c.N), csb(c.trans_b ? c.K : 1) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (float& x : A) x = u(rng);
    for (float& x : B) x = u(rng);
  }
};

// The shapes' products with their operands rounded to bfloat16 (gemm_bf16, on the path this
// CPU takes), against float32's gemm on the same operands, timed in alternating rounds.
void bench_gemm_bf16(const std::vector<GemmCase>& cases, const std::vector<int>& thread_counts,
                     bool json) {
  const cpu::Bf16Path path = cpu::bf16_gemm_path();
  if (!json) {
    std::printf("C[M, N] = A[M, K] @ B[K, N], operands rounded to bfloat16, sums in float32; "
                "path %s, CPU level %s\n", cpu::bf16_path_name(path), cpu::cpu_level_summary().c_str());
    std::printf("%-22s %5s %5s %5s %3s %9s %9s %8s\n", "shape", "M", "N", "K", "thr",
                "bf16", "float32", "ratio");
  }
  std::mt19937 rng(0);
  for (const GemmCase& c : cases) {
    GemmOperands o(c, rng);
    const int64_t rsa = o.rsa, csa = o.csa, rsb = o.rsb, csb = o.csb;
    const double flop = 2.0 * double(c.M) * double(c.N) * double(c.K);
    for (int t : thread_counts) {
      set_num_threads(t);
      double bf16 = 1e30, f32 = 1e30;
      for (int round = 0; round < 5; ++round) {
        bf16 = std::min(bf16, best_seconds([&] {
          cpu::gemm_bf16(c.M, c.N, c.K, o.A.data(), rsa, csa, o.B.data(), rsb, csb, o.C.data(),
                         c.N, cpu::Triangle::kNone, false, path);
        }, 1));
        f32 = std::min(f32, best_seconds([&] {
          cpu::gemm<float>(c.M, c.N, c.K, o.A.data(), rsa, csa, o.B.data(), rsb, csb, o.C.data(),
                           c.N);
        }, 1));
      }
      if (json)
        std::printf("{\"bench\": \"gemm\", \"dtype\": \"bfloat16\", \"path\": \"%s\", "
                    "\"shape\": \"%s\", \"M\": %lld, \"N\": %lld, \"K\": %lld, \"threads\": %d, "
                    "\"gflops\": %.1f, \"float32_gflops\": %.1f}\n", cpu::bf16_path_name(path),
                    c.what, (long long)c.M, (long long)c.N, (long long)c.K, t, flop * 1e-9 / bf16,
                    flop * 1e-9 / f32);
      else
        std::printf("%-22s %5lld %5lld %5lld %3d %9.1f %9.1f %7.2fx\n", c.what, (long long)c.M,
                    (long long)c.N, (long long)c.K, t, flop * 1e-9 / bf16, flop * 1e-9 / f32,
                    f32 / bf16);
      std::fflush(stdout);
    }
  }
}

int bench_gemm(int64_t threads_opt, double peak_per_core, bool json, const std::string& dtype) {
  // y = x Wᵀ in forward reads W transposed; backward computes dx = dy W (plain) and
  // dW = dyᵀ x (A transposed). These are the recipe's (B·T = 768, C = 128) products, then
  // those of the sweep's C = 768 GPT.
  const std::vector<GemmCase> cases = {
      {"square", 512, 512, 512, false, false},
      {"square", 1024, 1024, 1024, false, false},
      {"c_attn fwd x Wt", 768, 384, 128, false, true},
      {"c_attn bwd dy W", 768, 128, 384, false, false},
      {"c_attn bwd dyt x", 384, 128, 768, true, false},
      {"c_fc fwd x Wt", 768, 512, 128, false, true},
      {"c_fc bwd dyt x", 512, 128, 768, true, false},
      {"mlp c_proj fwd", 768, 128, 512, false, true},
      {"mlp c_proj bwd dy W", 768, 512, 128, false, false},
      {"mlp c_proj bwd dyt x", 128, 512, 768, true, false},
      // the sweep's widest GPT (C = 768): x Wᵀ of c_fc, of the MLP's c_proj, and the
      // backward products of c_fc
      {"C768 c_fc fwd x Wt", 768, 3072, 768, false, true},
      {"C768 c_proj fwd x Wt", 768, 768, 3072, false, true},
      {"C768 c_fc bwd dy W", 768, 768, 3072, false, false},
      {"C768 c_fc bwd dyt x", 3072, 768, 768, true, false},
  };
  std::vector<int> thread_counts = {1, 2};
  if (threads_opt > 0) thread_counts = {int(threads_opt)};
  ATTIC_CHECK(dtype == "float32" || dtype == "bfloat16", "bench gemm: --dtype=", dtype,
              ": float32 or bfloat16");
  if (dtype == "bfloat16") {
    bench_gemm_bf16(cases, thread_counts, json);
    return 0;
  }
  if (!json) {
    std::printf("C[M, N] = A[M, K] @ B[K, N], float32, %s kernels (CPU level %s); "
                "%% of peak = threads x %.0f GFLOP/s\n", cpu::cpu_backend().isa(),
                cpu::cpu_level_summary().c_str(), peak_per_core);
    std::printf("%-22s %5s %5s %5s %3s %9s %7s %9s %8s\n", "shape", "M", "N", "K", "thr",
                "GFLOP/s", "% peak", "naive", "speedup");
  }
  std::mt19937 rng(0);
  for (const GemmCase& c : cases) {
    GemmOperands o(c, rng);
    const int64_t rsa = o.rsa, csa = o.csa, rsb = o.rsb, csb = o.csb;
    const double flop = 2.0 * double(c.M) * double(c.N) * double(c.K);
    for (int t : thread_counts) {
      set_num_threads(t);
      const double fast = flop * 1e-9 / best_seconds([&] {
        cpu::gemm<float>(c.M, c.N, c.K, o.A.data(), rsa, csa, o.B.data(), rsb, csb, o.C.data(),
                         c.N);
      }, 5);
      // the naive loop, split over threads by rows; one run at 1024^3 (about a second)
      const double naive = flop * 1e-9 / best_seconds([&] {
        cpu::parallel_for(0, c.M, 1, [&](int64_t i0, int64_t i1) {
          cpu::gemm_naive<float>(i1 - i0, c.N, c.K, o.A.data() + i0 * rsa, rsa, csa, o.B.data(),
                                 rsb, csb, o.C.data() + i0 * c.N, c.N);
        });
      }, c.M * c.N * c.K > 512 * 512 * 512 ? 1 : 3);
      const double pct = 100.0 * fast / (t * peak_per_core);
      if (json)
        std::printf("{\"bench\": \"gemm\", \"shape\": \"%s\", \"M\": %lld, \"N\": %lld, \"K\": %lld, "
                    "\"threads\": %d, \"gflops\": %.1f, \"percent_of_peak\": %.1f, "
                    "\"naive_gflops\": %.2f}\n", c.what, (long long)c.M, (long long)c.N,
                    (long long)c.K, t, fast, pct, naive);
      else
        std::printf("%-22s %5lld %5lld %5lld %3d %9.1f %6.1f%% %9.2f %7.0fx\n", c.what,
                    (long long)c.M, (long long)c.N, (long long)c.K, t, fast, pct, naive,
                    fast / naive);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

int bench(const std::vector<std::string>& args) {
  const std::string what = util::pick_subcommand("bench", {
      {"gemm", "the GEMM against its naive reference, GFLOP/s per size"},
      {"train", "one training step of a GPT, ms and tokens/s"},
      {"attention", "softmax against linear attention, forward and backward, by length"},
      {"sample", "generation with and without the attentions' caches, tokens/s"},
      {"elita", "ELiTA's attention against softmax, by length"},
      {"linformer", "the Linformer's attention against softmax, by length"},
      {"gpt2", "GPT-2 124M's shapes: sampling with the KV cache, and a finetune step"},
      {"bpe", "training GPT-2's byte-level BPE on a text, and encoding it, tokens/s"}}, args);
  if (what.empty()) return 0;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMaxN = int64_t(1) << 24;
  std::string preset = "cpu", device = "cpu", attention = "softmax";
  int64_t threads = 0, iters = 100, warmup = 5;
  double peak = 230.0;
  bool json = false;
  // per bench, when not given: attention 4096 / 8192, elita 131072 / 16384, linformer
  // 262144 / 16384
  int64_t max_n = 0, softmax_max_n = 0;
  bool checkpoints = false;
  std::string causal = "both";
  int64_t n = 4096;
  int64_t new_tokens = 1000, block_size = 0;
  // Far beyond what a CPU step or a sample loop can time, and small enough that the GPT's
  // position table, [block_size, C], is counted without overflow.
  constexpr int64_t kMaxBlockSize = int64_t(1) << 20;
  // bench train: a shape field not given keeps the preset's value
  int64_t batch_size = 0, n_layer = 0, n_head = 0, n_embd = 0;
  double dropout = 0;
  bool sweep = false, products = false;
  Gpt2BenchOptions g2;
  std::string bpe_text, bpe_save;
  int64_t bpe_vocab = 1024;
  Options opts;
  opts.bind("threads", threads, "0: 1 and 2 for gemm, all for train").int_range(0, kMaxThreads);
  opts.bind("json", json, "one JSON object per line");
  std::string gemm_dtype = "float32";
  opts.bind("dtype", gemm_dtype, "gemm: float32, or bfloat16 (against float32, naming its path); "
            "train, gpt2: the model's dtype, float32 or bfloat16 (autocast)");
  opts.bind("preset", preset, "train: cpu or gpu-size");
  opts.bind("device", device, "train, gpt2: cpu or cuda");
  opts.bind("attention", attention, "train: the GPT's attention (models/registry.h)");
  opts.bind("iters", iters, "train: timed steps").int_range(1, kMax);
  opts.bind("warmup", warmup, "train: untimed steps first").int_range(0, kMax);
  opts.bind("peak_gflops_per_core", peak, "gemm: the peak that % of peak refers to")
      .float_range(0, std::numeric_limits<double>::infinity(), /*lo_open=*/true);
  opts.bind("max_n", max_n, "attention, elita, linformer: the longest sequence (doubling; default "
            "4096, elita 131072, linformer 262144)").int_range(1, kMaxN);
  opts.bind("softmax_max_n", softmax_max_n, "attention, elita, linformer: softmax only up to this n "
            "(default 8192, elita and linformer 16384)").int_range(0, kMaxN);
  opts.bind("checkpoints", checkpoints, "linformer: time checkpoint levels C0, C1, C2 of a 12-layer "
            "stack instead");
  opts.bind("causal", causal, "linformer: the rows of causal none, prefix or both");
  opts.bind("n", n, "linformer --checkpoints: the stack's sequence length").int_range(1, kMaxN);
  opts.bind("new_tokens", new_tokens, "sample: tokens to generate").int_range(1, kMax);
  opts.bind("block_size", block_size, "sample: the GPT's context (default 64, the laptop "
            "recipe's); train: replaces the preset's").int_range(1, kMaxBlockSize);
  opts.bind("batch_size", batch_size, "train: replaces the preset's; gpt2: the step's batch (default 1)")
      .int_range(1, kMax);
  opts.bind("n_layer", n_layer, "train: replaces the preset's").int_range(1, kMax);
  opts.bind("n_head", n_head, "train: replaces the preset's").int_range(1, kMax);
  opts.bind("n_embd", n_embd, "train: replaces the preset's").int_range(1, kMax);
  opts.bind("dropout", dropout, "train: replaces the preset's").float_range(0, 1, false, /*hi_open=*/true);
  opts.bind("sweep", sweep, "train: n_embd 128..768 and block 64..1024 in turn");
  opts.bind("products", products, "train: also time the step's matrix products alone, replayed");
  opts.bind("what", g2.what, "gpt2: sample, step or both");
  opts.bind("gpt2_dir", g2.gpt2_dir, "gpt2: a GPT-2 folder's weights instead of random ones of 124M's shapes");
  opts.bind("text", bpe_text, "bpe: the text (default: the shipped Shakespeare)");
  opts.bind("vocab", bpe_vocab, "bpe: the BPE's ids").int_range(257, 1 << 20);
  opts.bind("save", bpe_save, "bpe: save the trained BPE here (for the tiktoken peer)");
  opts.bind("cache_mib", g2.cache_mib, "gpt2: the CPU allocator's cache of freed blocks, MiB (-1: its default)")
      .int_range(-1, int64_t(1) << 30);
  opts.bind("prompt", g2.prompt, "gpt2: prompt tokens before new_tokens (default 256)").int_range(1, kMaxBlockSize);
  std::ostringstream quiet;
  if (!parse_command_line(opts, {args.begin() + 1, args.end()},
                          "usage: attic bench gemm|train|attention|sample|elita|linformer|gpt2|bpe "
                          "[--key=value ...]", quiet))
    return 0;
  // Only bench train and gpt2 run on a device; the others time CPU kernels, and must not
  // print CPU figures as if they were another device's.
  ATTIC_CHECK(args[0] == "train" || args[0] == "gpt2" || device == "cpu", "bench ", args[0], " times the CPU only; ",
              "--device=", device, " is for bench train and bench gpt2");
  if (args[0] == "gemm") return bench_gemm(threads, peak, json, gemm_dtype);
  // a value of this bench's own when the flag is not given
  auto or_else = [&](const char* key, int64_t v, int64_t otherwise) { return opts.given(key) ? v : otherwise; };
  if (args[0] == "attention")
    return bench_attention(or_else("max_n", max_n, 4096), or_else("softmax_max_n", softmax_max_n, 8192),
                           threads, json);
  if (args[0] == "elita")
    return bench_elita(or_else("max_n", max_n, 131072), or_else("softmax_max_n", softmax_max_n, 16384),
                       threads, json);
  if (args[0] == "linformer")
    return checkpoints ? bench_linformer_checkpoints(n, threads, json)
                       : bench_linformer(or_else("max_n", max_n, 262144),
                                         or_else("softmax_max_n", softmax_max_n, 16384), causal, threads,
                                         json);
  if (args[0] == "bpe") return bench_bpe(bpe_text, bpe_vocab, or_else("iters", iters, 5), bpe_save, json);
  if (args[0] == "gpt2") {
    g2.new_tokens = or_else("new_tokens", new_tokens, 256);
    g2.block_size = or_else("block_size", block_size, 1024);
    g2.batch_size = or_else("batch_size", batch_size, 1);
    g2.device = device_from_flag(device);
    g2.iters = or_else("iters", iters, 3);
    g2.warmup = or_else("warmup", warmup, 1);
    g2.threads = threads;
    g2.json = json;
    g2.dtype = gemm_dtype;
    return bench_gpt2(g2);
  }
  if (args[0] == "sample")
    return bench_sample(new_tokens, or_else("block_size", block_size, 64), threads, json);
  const Device dev = device_from_flag(device);
  if (sweep) {
    for (const TrainShape& s : train_sweep()) bench_train(s, attention, dev, threads, iters, warmup, products, json);
    return 0;
  }
  TrainShape shape = train_preset(preset);
  if (opts.given("batch_size")) shape.batch_size = batch_size;
  if (opts.given("block_size")) shape.block_size = block_size;
  if (opts.given("n_layer")) shape.n_layer = n_layer;
  if (opts.given("n_head")) shape.n_head = n_head;
  if (opts.given("n_embd")) shape.n_embd = n_embd;
  if (opts.given("dropout")) shape.dropout = dropout;
  shape.dtype = parse_autocast_dtype("bench train: dtype", gemm_dtype);
  ATTIC_CHECK(!products || shape.dtype == kFloat32, "bench train: --products replays the step's "
              "float32 gemm calls, and a bfloat16 step makes its products in gemm_bf16; give "
              "--dtype=float32 with --products");
  const std::string sizes = "batch_size=" + std::to_string(shape.batch_size) + " block_size=" +
                            std::to_string(shape.block_size) + " n_layer=" + std::to_string(shape.n_layer) +
                            " n_head=" + std::to_string(shape.n_head) + " n_embd=" + std::to_string(shape.n_embd);
  return naming_settings("bench train", sizes,
                         [&] { return bench_train(shape, attention, dev, threads, iters, warmup, products, json); });
}

}  // namespace attic::lab
