#include "lab/bench_train.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>
#include <vector>

#include "data/text_dataset.h"
#include "models/gpt.h"
#include "optim/optim.h"
#include "lab/gemm_trace.h"
#include "tensor/memory.h"
#include "tensor/threads.h"
#include "train/size_check.h"

namespace attic::lab {


namespace {

using Clock = std::chrono::steady_clock;

// CPU time this process has used so far, all threads, in ms.
double process_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

// Page faults so far (minor: a page mapped on first touch; major: read from disk), and the
// process's peak resident set in bytes (Linux reports ru_maxrss in KiB).
struct Usage {
  long faults = 0;
  size_t peak_rss = 0;
};
Usage usage() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return {u.ru_minflt + u.ru_majflt, size_t(u.ru_maxrss) * 1024};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

TrainShape train_preset(const std::string& preset) {
  TrainShape s;
  s.name = preset;
  if (preset == "cpu") return s;  // config/shakespeare_char_cpu.cfg
  if (preset == "gpu-size") {     // config/shakespeare_char.cfg
    s.batch_size = 64;
    s.block_size = 256;
    s.n_layer = 6;
    s.n_head = 6;
    s.n_embd = 384;
    s.dropout = 0.2;
    return s;
  }
  fail("bench train: preset must be cpu or gpu-size, got '", preset, "'");
}

std::vector<TrainShape> train_sweep() {
  std::vector<TrainShape> out;
  for (int64_t C : {128, 256, 384, 768}) {
    TrainShape s;
    s.name = "sweep";
    s.n_embd = C;
    out.push_back(s);
  }
  for (int64_t T : {256, 1024}) {
    TrainShape s;
    s.name = "sweep";
    s.block_size = T;
    out.push_back(s);
  }
  return out;
}

int bench_train(const TrainShape& shape, const std::string& attention, Device device,
                int64_t threads, int64_t iters, int64_t warmup, bool products, bool json) {
  ATTIC_CHECK(iters > 0 && warmup >= 0, "bench train: iters must be positive and warmup >= 0");
  ATTIC_CHECK(!products || device == Device::CPU,
              "bench train: --products replays the CPU's matrix products, got --device=",
              device_name(device));
  ATTIC_CHECK(!products || warmup >= 1,
              "bench train: --products records the products of the last warm-up step, got --warmup=",
              warmup);
  ATTIC_CHECK(shape.batch_size > 0 && shape.block_size > 0 && shape.n_layer > 0 &&
                  shape.n_head > 0 && shape.n_embd > 0 && shape.n_embd % shape.n_head == 0,
              "bench train: batch_size, block_size, n_layer, n_head and n_embd must be positive "
              "and n_embd divisible by n_head, got ", shape.batch_size, ", ", shape.block_size,
              ", ", shape.n_layer, ", ", shape.n_head, ", ", shape.n_embd);
  models::GPTConfig cfg;
  cfg.attention = attention;
  cfg.vocab_size = 65;
  cfg.bias = false;
  cfg.block_size = shape.block_size;
  cfg.n_layer = shape.n_layer;
  cfg.n_head = shape.n_head;
  cfg.n_embd = shape.n_embd;
  cfg.dropout = shape.dropout;
  const int64_t B = shape.batch_size;
  {  // a shape the machine cannot hold is refused at once, with the estimate (train/size_check.h)
    train::TrainConfig sized;
    sized.block_size = cfg.block_size;
    sized.n_layer = cfg.n_layer;
    sized.n_head = cfg.n_head;
    sized.n_embd = cfg.n_embd;
    sized.batch_size = B;
    if (device == Device::CPU)
      train::check_size("bench train", "n_layer=" + std::to_string(cfg.n_layer) + " n_head=" +
                        std::to_string(cfg.n_head) + " n_embd=" + std::to_string(cfg.n_embd) + " block_size=" +
                        std::to_string(cfg.block_size) + " batch_size=" + std::to_string(B),
                        train::train_size(sized, cfg.vocab_size));
  }
  if (threads > 0) set_num_threads(int(threads));
  manual_seed(1337);
  const TextDataset data = TextDataset::from_file(default_dataset_path());
  // Peak memory: the most bytes held at once beyond what was held before the model existed
  // (weights, gradients, AdamW's moments, activations and kernels' scratch).
  const size_t held_before = memory_stats(device).in_use;
  reset_peak_memory(device);
  models::GPT model(cfg);
  model.to(device);
  optim::AdamW opt = model.configure_optimizers(0.1, 1e-3, {0.9, 0.99});
  const Tensor last_matrix = opt.param_groups()[0].params.back();
  // Per step: the whole step, and its phases (forward, backward, clip + AdamW + zero_grad).
  // Also the process's CPU time per step: unlike wall time it barely moves when other
  // programs share the machine (at 2 threads it counts the pool's spinning too).
  std::vector<double> ms, fwd, bwd, opt_ms, cpu;
  const auto since = [](Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  };
  // GPU kernels run asynchronously: reading one element of a result back waits for the
  // phase that made it, so that each phase's time is its own.
  const auto sync = [device](const Tensor& t) {
    if (device == Device::CUDA) t.reshape({-1}).narrow(0, 0, 1).item<double>();
  };
  // --products: the products alone, replayed after each timed step so that both see the
  // same minutes of a machine whose speed drifts.
  std::vector<double> products_ms;
  std::optional<lab::GemmReplay> replay;
  long faults_at_start = 0;
  for (int64_t it = 0; it < warmup + iters; ++it) {
    if (it == warmup) faults_at_start = usage().faults;
    const bool record = products && it == warmup - 1;
    if (record) lab::start_gemm_trace();
    const double c0 = process_cpu_ms();
    const auto t0 = Clock::now();
    Batch b = data.get_batch(Split::Train, B, cfg.block_size, default_generator());
    const auto t1 = Clock::now();
    Tensor loss;
    {
      const AutocastGuard cast(shape.dtype);
      loss = model.forward(b.x.to(device), b.y.to(device)).loss;
    }
    sync(loss);
    const double f = since(t1);
    const auto t2 = Clock::now();
    loss.backward();
    sync(last_matrix.grad());
    const double g = since(t2);
    const auto t3 = Clock::now();
    optim::clip_grad_norm_(model.parameters(), 1.0);
    opt.step();
    opt.zero_grad();
    sync(last_matrix);
    const double o = since(t3);
    if (record) replay.emplace(lab::stop_gemm_trace());
    if (it < warmup) continue;
    ms.push_back(since(t0));
    cpu.push_back(process_cpu_ms() - c0);
    fwd.push_back(f);
    bwd.push_back(g);
    opt_ms.push_back(o);
    if (replay) {
      const auto t4 = Clock::now();
      replay->run();
      products_ms.push_back(since(t4));
    }
  }
  const Usage end = usage();
  const double faults_per_step = double(end.faults - faults_at_start) / double(iters);
  const double step = median(ms);
  const double tokens_per_s = double(B * cfg.block_size) / (step / 1000.0);
  const size_t peak = memory_stats(device).peak - held_before;
  const double products_median = replay ? median(products_ms) : 0.0;
  char products_json[160] = "";
  if (replay)
    std::snprintf(products_json, sizeof products_json,
                  ", \"gemm_calls\": %zu, \"products_ms\": %.2f, \"products_gflop\": %.4f, "
                  "\"step_over_products\": %.3f",
                  replay->calls().size(), products_median, replay->flops() * 1e-9,
                  step / products_median);
  if (json)
    std::printf("{\"bench\": \"train\", \"preset\": \"%s\", \"attention\": \"%s\", "
                "\"dtype\": \"%s\", \"device\": \"%s\", \"threads\": %d, \"batch_size\": %lld, \"block_size\": %lld, "
                "\"n_layer\": %lld, \"n_head\": %lld, \"n_embd\": %lld, \"dropout\": %g, "
                "\"iters\": %lld, \"ms_per_iter\": %.2f, \"tokens_per_s\": %.0f, \"forward_ms\": %.2f, "
                "\"backward_ms\": %.2f, \"optimizer_ms\": %.2f, \"cpu_ms_per_iter\": %.2f, "
                "\"page_faults_per_iter\": %.1f, \"peak_memory_bytes\": %zu, "
                "\"peak_rss_bytes\": %zu%s}\n",
                shape.name.c_str(), attention.c_str(), dtype_name(shape.dtype), device_name(device),
                num_threads(), (long long)B, (long long)cfg.block_size, (long long)cfg.n_layer,
                (long long)cfg.n_head, (long long)cfg.n_embd, cfg.dropout, (long long)iters, step,
                tokens_per_s, median(fwd), median(bwd), median(opt_ms), median(cpu),
                faults_per_step, peak, end.peak_rss, products_json);
  else
    std::printf("train %s (%s attention, %s) on %s: B %lld, T %lld, %lld layers, %lld heads, C %lld, "
                "dropout %g; %d threads, %lld iterations: %.2f ms/iter (median), %.0f tokens/s\n"
                "  forward %.2f ms, backward %.2f ms, clip + AdamW + zero_grad %.2f ms; "
                "CPU time %.2f ms/iter (medians); %.1f page faults per step\n"
                "  peak memory: %s (%s allocator), process peak RSS %s\n",
                shape.name.c_str(), attention.c_str(), dtype_name(shape.dtype), device_name(device),
                (long long)B, (long long)cfg.block_size, (long long)cfg.n_layer, (long long)cfg.n_head,
                (long long)cfg.n_embd, cfg.dropout, num_threads(), (long long)iters, step,
                tokens_per_s, median(fwd), median(bwd), median(opt_ms), median(cpu),
                faults_per_step, format_mib(peak).c_str(), device_name(device),
                format_mib(end.peak_rss).c_str());
  if (replay && !json)
    std::printf("  matrix products alone (this step's %zu gemm calls, replayed after each step): "
                "%.2f ms/iter (median), %.3f GFLOP at %.1f GFLOP/s; the step takes %.2fx their time\n",
                replay->calls().size(), products_median, replay->flops() * 1e-9,
                replay->flops() * 1e-6 / products_median, step / products_median);
  return 0;
}

}  // namespace attic::lab
