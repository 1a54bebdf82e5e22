// Chapter 15: a GPT small enough to step through in gdb. One forward and backward of nanoGPT's
// model (2 blocks, 2 heads, C = 8) on one sequence of 6 tokens, then a poisoned run that
// anomaly mode stops: log of a negative number is NaN.
#include <cstdio>
#include <vector>

#include "autograd/anomaly_mode.h"
#include "models/gpt.h"
#include "tensor/threads.h"

using namespace attic;

int main() {
  set_num_threads(1);  // one thread: `next` in a kernel stays on the thread it started on
  manual_seed(1337);
  models::GPTConfig cfg;
  cfg.block_size = 8;
  cfg.vocab_size = 10;
  cfg.n_layer = 2;
  cfg.n_head = 2;
  cfg.n_embd = 8;
  models::GPT model(cfg);
  Tensor idx = from_vector(std::vector<int64_t>{1, 2, 3, 4, 5, 6}, {1, 6});  // [B, T] = [1, 6]
  Tensor targets = from_vector(std::vector<int64_t>{2, 3, 4, 5, 6, 7}, {1, 6});

  Tensor loss = model.forward(idx, targets).loss;
  loss.backward();  // breakpoints in LayerNormBackward and PackedAttentionBackward stop here
  int64_t with_grad = 0;
  for (const auto& [name, p] : model.named_parameters()) with_grad += p.grad().defined();
  std::printf("loss %.4f; %lld parameter tensors have a gradient\n", loss.item<double>(),
              (long long)with_grad);

  // The poisoned run: logits below 0 make log NaN. With anomaly mode the op that made the
  // first NaN throws attic::Error; in gdb, `catch throw` stops at that throw.
  autograd::DetectAnomalyGuard anomaly;
  try {
    Tensor logits = model.forward(idx).logits;  // [1, 1, 10]: the last position only
    Tensor poisoned = log(logits);              // NaN wherever a logit is negative
    std::printf("not reached: %g\n", sum(poisoned).item<double>());
  } catch (const Error& e) {
    std::printf("%s\n", e.what());
  }
  return 0;
}
