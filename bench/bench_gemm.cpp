// attic_bench_gemm: GFLOP/s of the packed gemm and of gemm_naive, float32, on square and
// GPT-2-small shapes, with 1 and 2 threads. Each figure is the best of several timed runs,
// so a machine busy with other work shows its quietest moment.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "tensor/cpu/gemm.h"
#include "tensor/cpu/thread_pool.h"

using namespace attic;

namespace {

// Peak of one core of the development machine (Intel Xeon, AVX-512): 2 FMA ports x 16 float
// lanes x 2 FLOP = 64 FLOP per cycle; at ~3.5-3.6 GHz that is about 230 GFLOP/s. The peak
// of t threads is taken as t x 230 GFLOP/s.
constexpr double kPeakPerCore = 230.0;

constexpr int kRuns = 5;               // timed runs; the best one is reported
constexpr double kMinRunSeconds = 0.1;  // a run repeats the product until it lasts this long

struct Shape3 {
  int64_t M, N, K;
};

// Seconds of one call of f: the best of kRuns runs, each the mean over enough calls to last
// kMinRunSeconds (after one untimed warm-up call, which also sizes the runs).
double best_seconds(const std::function<void()>& f, int runs) {
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  f();
  const double once = std::chrono::duration<double>(clock::now() - t0).count();
  const int reps = std::max(1, int(kMinRunSeconds / std::max(once, 1e-9)));
  double best = 1e30;
  for (int r = 0; r < runs; ++r) {
    t0 = clock::now();
    for (int i = 0; i < reps; ++i) f();
    best = std::min(best, std::chrono::duration<double>(clock::now() - t0).count() / reps);
  }
  return best;
}

}  // namespace

int main() {
  const std::vector<Shape3> shapes = {
      {512, 512, 512}, {1024, 1024, 1024}, {768, 128, 384}, {768, 128, 512}, {768, 512, 128}};
  const int64_t naive_limit = int64_t(1024) * 1024 * 1024;  // naive beyond this takes too long

  std::printf("C[M, N] = A[M, K] @ B[K, N], float32, row-major; best of %d runs\n", kRuns);
  std::printf("%% peak: of threads x %.0f GFLOP/s; naive with t threads: t row blocks of "
              "gemm_naive\n\n",
              kPeakPerCore);
  std::printf("%6s %6s %6s %8s %14s %8s %15s %8s\n", "M", "N", "K", "threads", "gemm GFLOP/s",
              "% peak", "naive GFLOP/s", "speedup");

  std::mt19937 rng(0);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (Shape3 s : shapes) {
    std::vector<float> A(size_t(s.M * s.K)), B(size_t(s.K * s.N)), C(size_t(s.M * s.N));
    for (float& x : A) x = u(rng);
    for (float& x : B) x = u(rng);
    const double flop = 2.0 * double(s.M) * double(s.N) * double(s.K);

    for (int threads : {1, 2}) {
      set_num_threads(threads);
      const double fast = flop / best_seconds([&] {
        cpu::gemm<float>(s.M, s.N, s.K, A.data(), s.K, 1, B.data(), s.N, 1, C.data(), s.N);
      }, kRuns) * 1e-9;
      std::printf("%6lld %6lld %6lld %8d %14.1f %7.1f%%", (long long)s.M, (long long)s.N,
                  (long long)s.K, threads, fast, 100.0 * fast / (threads * kPeakPerCore));
      if (s.M * s.N * s.K <= naive_limit) {
        const double naive = flop / best_seconds([&] {
          cpu::parallel_for(0, s.M, 1, [&](int64_t i0, int64_t i1) {
            cpu::gemm_naive<float>(i1 - i0, s.N, s.K, A.data() + i0 * s.K, s.K, 1, B.data(),
                                   s.N, 1, C.data() + i0 * s.N, s.N);
          });
        }, s.M * s.N * s.K > int64_t(512) * 512 * 512 ? 1 : 3) * 1e-9;  // 1024^3: ~1 s a run
        std::printf(" %15.2f %7.0fx\n", naive, fast / naive);
      } else {
        std::printf(" %15s %8s\n", "-", "-");
      }
      std::fflush(stdout);
    }
  }
  return 0;
}
