// Chapter 14: threads. parallel_for splits a range into one chunk per thread; every kernel
// computes each output element on exactly one thread, in a fixed order, so a result does
// not depend on the thread count, down to the last bit.
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <utility>
#include <vector>

#include "models/gpt.h"
#include "tensor/cpu/thread_pool.h"

using namespace attic;

int main() {
  // The chunks of [0, 1000) with a grain of 100, for 1 and 2 threads.
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    std::mutex m;
    std::vector<std::pair<int64_t, int64_t>> chunks;
    cpu::parallel_for(0, 1000, 100, [&](int64_t lo, int64_t hi) {
      std::lock_guard<std::mutex> lock(m);
      chunks.emplace_back(lo, hi);
    });
    std::sort(chunks.begin(), chunks.end());
    std::printf("%d thread%s:", threads, threads > 1 ? "s" : " ");
    for (auto [lo, hi] : chunks) std::printf(" [%lld, %lld)", (long long)lo, (long long)hi);
    std::printf("\n");
  }
  // Below two grains the range is not split: waking a thread costs more than it saves.
  std::printf("a range of 150 with grain 100 runs inline: ");
  int calls = 0;
  cpu::parallel_for(0, 150, 100, [&](int64_t, int64_t) { ++calls; });
  std::printf("%d call\n", calls);

  // A laptop-GPT training loss and its gradient, with 1 and 2 threads.
  models::GPTConfig cfg;
  cfg.vocab_size = 65;
  cfg.block_size = 64;
  cfg.n_layer = 2;
  cfg.n_head = 4;
  cfg.n_embd = 128;
  manual_seed(1);
  models::GPT model(cfg);
  const Tensor idx = randint(0, 65, {12, 64});
  const Tensor targets = randint(0, 65, {12, 64});
  double loss[2], grad[2];
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    Tensor l = model.forward(idx, targets).loss;
    l.backward();
    loss[threads - 1] = l.item<double>();
    grad[threads - 1] = sum(model.named_parameters().front().second.grad()).item<double>();
    model.zero_grad();
  }
  std::printf("loss and gradient, 1 thread vs 2: %s\n",
              loss[0] == loss[1] && grad[0] == grad[1] ? "identical" : "different");
  return 0;
}
