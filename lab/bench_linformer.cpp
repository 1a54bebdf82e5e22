#include "lab/bench_linformer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "autograd/grad_mode.h"
#include "lab/bench_timer.h"
#include "util/options.h"
#include "models/linformer/linformer.h"
#include "models/linformer/linformer_attention.h"
#include "nn/attention/causal_self_attention.h"
#include "tensor/memory.h"
#include "tensor/threads.h"

namespace attic::lab {

using namespace util;

namespace {

namespace lf = models::linformer;
using Clock = std::chrono::steady_clock;

// Seconds from t0 until now.
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// /proc/cpuinfo's first "model name", or "unknown" where there is none (not Linux, or a CPU
// that does not name itself there).
std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(':');
    if (line.rfind("model name", 0) == 0 && colon != std::string::npos)
      return trim_blanks(line.substr(colon + 1));
  }
  return "unknown";
}

// Seconds of one call of f: after one untimed warm-up call (which also sizes the runs), the
// median of `runs` runs, each the mean over enough calls to last `min_run` seconds.
double median_seconds(const std::function<void()>& f, int runs = 3, double min_run = 0.05) {
  auto t0 = Clock::now();
  f();
  const double once = seconds_since(t0);
  const int reps = std::max(1, int(min_run / std::max(once, 1e-9)));
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    t0 = Clock::now();
    for (int i = 0; i < reps; ++i) f();
    t.push_back(seconds_since(t0) / reps);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// time_fwd_bwd (lab/bench_timer.h) with medians of 3 runs instead of the best: one output
// [1, n, C] from leaves that require grad, the forward without a graph, forward + backward
// from sum(output), and the most bytes of CPU tensor storage held during forward + backward
// beyond what was held before.
FwdBwd median_fwd_bwd(const std::function<Tensor()>& forward, const std::function<void()>& clear) {
  FwdBwd r;
  r.fwd = median_seconds([&] {
    NoGradGuard no_grad;
    (void)forward();
  });
  auto fb = [&] {
    sum(forward()).backward();
    clear();
  };
  r.fwd_bwd = median_seconds(fb);
  const size_t base = memory_stats(Device::CPU).in_use;
  reset_peak_memory(Device::CPU);
  fb();
  r.peak = memory_stats(Device::CPU).peak - base;
  return r;
}

}  // namespace

// max_n, softmax_max_n: the longest n of the Linformer and of softmax; causal: which
// Linformer rows; prints one line per attention and n (or JSON)
int bench_linformer(int64_t max_n, int64_t softmax_max_n, const std::string& causal, int64_t threads, bool json) {
  ATTIC_CHECK(max_n >= 4096 && softmax_max_n >= 0, "bench linformer: max_n must be >= 4096 and "
              "softmax_max_n >= 0, got ", max_n, " and ", softmax_max_n);
  ATTIC_CHECK(causal == "none" || causal == "prefix" || causal == "both",
              "bench linformer: causal must be none, prefix or both, got '", causal, "'");
  if (threads > 0) set_num_threads(int(threads));
  // The long sequence of the linformer-pytorch package's example (x [1, 262144, 64]), with
  // k = 128 slots per head, as the paper times its attention: k fixed while n grows.
  constexpr int64_t C = 64, H = 4, K = 128;
  struct Variant {
    const char* name;
    const char* causal;
    // the attention for sequences of n positions
    std::function<std::shared_ptr<nn::CausalMixer>(int64_t n)> make;
    int64_t max_n;
    bool median;  // medians of 3 runs; else the best of up to 5 (time_fwd_bwd)
  };
  // A Linformer layer is built for its n: E and F are Linear(n → k) over positions.
  auto linformer = [](lf::Causal causal) {
    return [causal](int64_t n) -> std::shared_ptr<nn::CausalMixer> {
      lf::LinformerAttentionOptions o;
      o.input_size = n, o.channels = C, o.nhead = H, o.dim = C / H, o.dim_k = K;
      o.method = lf::Method::Learnable, o.parameter_sharing = lf::Sharing::Headwise;
      o.dropout = 0.0, o.causal = causal;
      manual_seed(0);
      return std::make_shared<lf::LinformerAttention>(o);
    };
  };
  std::vector<Variant> variants;
  if (causal != "prefix") variants.push_back({"linformer", "none", linformer(lf::Causal::None), max_n, true});
  if (causal != "none") variants.push_back({"linformer", "prefix", linformer(lf::Causal::Prefix), max_n, true});
  if (softmax_max_n >= 4096) {
    nn::MixerOptions so;
    so.n_embd = C, so.n_head = H, so.block_size = softmax_max_n, so.bias = false;
    manual_seed(0);
    auto softmax = std::make_shared<nn::CausalSelfAttention>(so);
    variants.push_back({"softmax", "mask", [softmax](int64_t) { return softmax; }, softmax_max_n, false});
  }
  if (!json) {
    std::printf("CPU: %s\n", cpu_model_name().c_str());
    std::printf("attention on x [1, n, %lld], %lld heads of %lld, %d threads: LinformerAttention\n"
                "(k %lld, learnable E and F shared headwise, dropout 0) and the GPT's causal softmax\n"
                "attention; peak = tensor memory during fwd+bwd\n", (long long)C, (long long)H,
                (long long)(C / H), num_threads(), (long long)K);
    std::printf("%-9s %-6s %7s %10s %11s %9s %11s %10s\n", "attention", "causal", "n", "fwd ms",
                "fwd+bwd ms", "peak MiB", "KiB/token", "t(2n)/t(n)");
  }
  for (const Variant& v : variants) {
    std::map<int64_t, FwdBwd> rows;
    for (int64_t n = 4096; n <= v.max_n; n *= 2) {
      std::shared_ptr<nn::CausalMixer> mixer = v.make(n);
      Tensor x = randn({1, n, C}).requires_grad_();
      auto forward = [&] { return mixer->forward(x); };
      auto clear = [&] {
        x.set_grad({});
        mixer->zero_grad();
      };
      const FwdBwd r = v.median ? median_fwd_bwd(forward, clear) : time_fwd_bwd(forward, clear);
      const bool has_prev = rows.count(n / 2) > 0;
      const double growth = has_prev ? r.fwd_bwd / rows[n / 2].fwd_bwd : 0.0;
      rows[n] = r;
      const double per_token_kib = double(r.peak) / double(n) / 1024.0;
      if (json) {
        std::printf("{\"bench\": \"linformer\", \"attention\": \"%s\", \"causal\": \"%s\", \"n\": %lld, "
                    "\"fwd_ms\": %.3f, \"fwd_bwd_ms\": %.3f, \"peak_bytes\": %zu, \"growth\": %.2f}\n",
                    v.name, v.causal, (long long)n, r.fwd * 1e3, r.fwd_bwd * 1e3, r.peak, growth);
      } else {
        char g[16] = "-";
        if (has_prev) std::snprintf(g, sizeof g, "%.2f", growth);
        std::printf("%-9s %-6s %7lld %10.2f %11.2f %9.1f %11.2f %10s\n", v.name, v.causal, (long long)n,
                    r.fwd * 1e3, r.fwd_bwd * 1e3, double(r.peak) / (1 << 20), per_token_kib, g);
      }
      std::fflush(stdout);
    }
  }
  if (!json)
    std::printf("causal none: every query reads all n positions through k slots (the paper's "
                "Linformer);\nprefix: query i reads slots summed over positions <= i "
                "(models/linformer/prefix_attention.h);\nmask: softmax under the GPT's triangle. "
                "Linformer times are medians of 3 runs, softmax's\nthe best of up to 5 (1 above 1 s); "
                "the peak includes the gradients of E and F, 2 x k x n floats\n"
                "t(2n)/t(n) is of fwd+bwd: about 2 for linear cost, about 4 for quadratic\n");
  return 0;
}

// n: the stack's input_size; prints one line per level (or JSON)
int bench_linformer_checkpoints(int64_t n, int64_t threads, bool json) {
  constexpr int64_t C = 128, H = 4, K = 128, depth = 12, dim_ff = 256;
  ATTIC_CHECK(n >= K, "bench linformer: n must be >= ", K, " (k) with --checkpoints, got ", n);
  if (threads > 0) set_num_threads(int(threads));
  const std::vector<lf::Checkpoint> levels = {lf::Checkpoint::C0, lf::Checkpoint::C1, lf::Checkpoint::C2};
  // One stack per level with the same weights: the package's checkpoint_level is fixed when
  // it is built.
  std::vector<std::shared_ptr<lf::Linformer>> stacks;
  for (lf::Checkpoint level : levels) {
    lf::LinformerOptions o;
    o.input_size = n, o.channels = C, o.nhead = H, o.dim_k = K, o.dim_ff = dim_ff, o.depth = depth;
    o.dropout = 0.1, o.dropout_ff = 0.1, o.causal = lf::Causal::None;
    o.parameter_sharing = lf::Sharing::Headwise, o.checkpoint_level = level;
    manual_seed(0);
    stacks.push_back(std::make_shared<lf::Linformer>(o));
  }
  manual_seed(1);
  const Tensor x = randn({1, n, C});
  // One forward + backward of sum(y·y) in training mode (dropout on): its seconds and the
  // most bytes of tensor storage it held beyond what was held before.
  auto run = [&](size_t i, double& seconds, size_t& peak) {
    const size_t base = memory_stats(Device::CPU).in_use;
    reset_peak_memory(Device::CPU);
    const auto t0 = Clock::now();
    {
      Tensor y = stacks[i]->forward(x);
      sum(y * y).backward();
    }
    seconds = seconds_since(t0);
    peak = memory_stats(Device::CPU).peak - base;
    stacks[i]->zero_grad();
  };
  if (!json) {
    std::printf("CPU: %s\n", cpu_model_name().c_str());
    std::printf("Linformer stack on x [1, %lld, %lld]: depth %lld, %lld heads of %lld, k %lld, dim_ff "
                "%lld,\ndropout 0.1 and 0.1, causal none, E and F shared headwise; forward + backward "
                "of sum(y*y),\n%d threads, 3 alternating rounds of C0, C1, C2\n", (long long)n,
                (long long)C, (long long)depth, (long long)H, (long long)(C / H), (long long)K,
                (long long)dim_ff, num_threads());
  }
  // A warm-up run of each level, then the rounds: C0, C1, C2, C0, C1, C2, ...
  constexpr int rounds = 3;
  std::vector<std::vector<double>> times(levels.size());
  std::vector<size_t> peaks(levels.size(), 0);
  for (int r = -1; r < rounds; ++r)
    for (size_t i = 0; i < levels.size(); ++i) {
      double s = 0;
      size_t p = 0;
      run(i, s, p);
      if (r < 0) continue;
      times[i].push_back(s);
      peaks[i] = std::max(peaks[i], p);
    }
  std::vector<double> medians;
  for (std::vector<double> t : times) {
    std::sort(t.begin(), t.end());
    medians.push_back(t[t.size() / 2]);
  }
  if (!json)
    std::printf("%-5s %11s %19s %9s %11s %7s %7s\n", "level", "fwd+bwd ms", "rounds ms", "peak MiB",
                "KiB/token", "memory", "time");
  for (size_t i = 0; i < levels.size(); ++i) {
    const double mem_ratio = double(peaks[i]) / double(peaks[0]), time_ratio = medians[i] / medians[0];
    const std::string level = lf::to_string(levels[i]);
    if (json) {
      std::printf("{\"bench\": \"linformer\", \"level\": \"%s\", \"n\": %lld, \"depth\": %lld, "
                  "\"fwd_bwd_ms\": %.3f, \"round_ms\": [%.3f, %.3f, %.3f], \"peak_bytes\": %zu, "
                  "\"memory_ratio\": %.3f, \"time_ratio\": %.3f}\n", level.c_str(), (long long)n,
                  (long long)depth, medians[i] * 1e3, times[i][0] * 1e3, times[i][1] * 1e3,
                  times[i][2] * 1e3, peaks[i], mem_ratio, time_ratio);
    } else {
      const auto [lo, hi] = std::minmax_element(times[i].begin(), times[i].end());
      char spread[32];
      std::snprintf(spread, sizeof spread, "%.1f-%.1f", *lo * 1e3, *hi * 1e3);
      std::printf("%-5s %11.2f %19s %9.1f %11.2f %6.2fx %6.2fx\n", level.c_str(), medians[i] * 1e3, spread,
                  double(peaks[i]) / (1 << 20), double(peaks[i]) / double(n) / 1024.0, mem_ratio, time_ratio);
    }
    std::fflush(stdout);
  }
  if (!json) {
    for (size_t i = 1; i < levels.size(); ++i)
      std::printf("%s: %.2fx memory, %.2fx time of C0\n", lf::to_string(levels[i]).c_str(),
                  double(peaks[i]) / double(peaks[0]), medians[i] / medians[0]);
    std::printf("C1 recomputes each layer (attention, feed-forward) in backward, C2 also each head "
                "inside\nthe attention (the linformer-pytorch package's checkpoint_level); fwd+bwd "
                "is the median of\nthe rounds, the peak their largest\n");
  }
  return 0;
}

}  // namespace attic::lab
