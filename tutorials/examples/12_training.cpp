// Chapter 12: a short training run. A tiny GPT learns from Shakespeare's train split with the
// loop of `attic train` (train/train_run.cpp): learning rate from the schedule, a batch, forward,
// backward, gradient clipping, an AdamW step with nanoGPT's two groups.
#include <cstdio>

#include "data/data.h"
#include "models/gpt.h"
#include "optim/optim.h"
#include "tensor/threads.h"

using namespace attic;

// Mean loss over n batches of split, in eval mode and without a graph. The batches come
// from their own generator, so evaluating never changes what training sees.
double estimate_loss(models::GPT& model, const TextDataset& ds, Split split, int64_t B,
                     int64_t T, int n) {
  NoGradGuard no_grad;
  model.eval();
  Generator gen(42);
  double total = 0;
  for (int i = 0; i < n; ++i) {
    Batch b = ds.get_batch(split, B, T, gen);
    total += model.forward(b.x, b.y).loss.item<double>();
  }
  model.train();
  return total / n;
}

int main() {
  set_num_threads(1);  // one thread: sums are added in one order, so runs repeat exactly
  manual_seed(1337);
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  models::GPTConfig cfg;
  cfg.block_size = 32;
  cfg.vocab_size = ds.vocab_size();
  cfg.n_layer = 2;
  cfg.n_head = 4;
  cfg.n_embd = 32;
  cfg.bias = false;
  models::GPT model(cfg);
  const int64_t B = 8, T = cfg.block_size, max_iters = 100;
  std::printf("number of parameters: %lld\n", (long long)model.num_params_non_embedding());

  // nanoGPT's groups: tensors of 2 or more dims decay, the LayerNorm weights do not.
  const double max_lr = 3e-2, min_lr = 3e-3;
  optim::AdamW opt = model.configure_optimizers(0.1, max_lr, {0.9, 0.99});

  std::printf("val loss before: %.2f\n", estimate_loss(model, ds, Split::Val, B, T, 20));
  for (int64_t iter = 0; iter <= max_iters; ++iter) {
    optim::set_lr(opt, optim::cosine_with_warmup(iter, max_lr, min_lr, 10, max_iters));
    Batch b = ds.get_batch(Split::Train, B, T, default_generator());
    Tensor loss = model.forward(b.x, b.y).loss;
    loss.backward();
    optim::clip_grad_norm_(model.parameters(), 1.0);
    opt.step();
    opt.zero_grad();
    // Only the first iterations are printed as numbers: rounding differs in the last bit
    // between builds (-O2, -O3, sanitizers), and training amplifies it, so later losses are
    // checked against a threshold instead of printed.
    if (iter <= 20 && iter % 10 == 0)
      std::printf("iter %3lld: loss %.2f\n", (long long)iter, loss.item<double>());
    if (iter == max_iters)
      std::printf("iter %3lld: loss below 3.5: %s\n", (long long)iter,
                  loss.item<double>() < 3.5 ? "yes" : "no");
  }
  const double val = estimate_loss(model, ds, Split::Val, B, T, 20);
  std::printf("val loss after: below 3.35, the frequency-only model of chapter 7: %s\n",
              val < 3.35 ? "yes" : "no");
  return 0;
}
