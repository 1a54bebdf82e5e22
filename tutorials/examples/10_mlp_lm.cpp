// Chapter 10: an MLP language model (Bengio et al. 2003): the previous k characters are
// embedded, their vectors concatenated, and a two-layer MLP gives the next one's logits.
//   e = wte[ctx]  ctx [N, k] -> [N, k, C];  h = gelu(e.view(N, k·C) W1ᵀ + b1)  [N, H]
//   logits = h W2ᵀ + b2                                                         [N, V]
// Trained with chapter 5's loop for k = 3 and k = 8; argument (optional): the steps (300).
#include <cstdio>
#include <cstdlib>

#include "data/data.h"
#include "nn/nn.h"
#include "optim/optim.h"
#include "tensor/threads.h"

using namespace attic;

// V characters, k of context, C numbers per embedding, H hidden units.
struct MlpLM : nn::Module {
  MlpLM(int64_t V, int64_t k, int64_t C, int64_t H) : k(k), C(C) {
    wte = register_module("wte", std::make_shared<nn::Embedding>(V, C));
    fc1 = register_module("fc1", std::make_shared<nn::Linear>(k * C, H));
    fc2 = register_module("fc2", std::make_shared<nn::Linear>(H, V));
  }
  // ctx [..., k] int64 -> logits [..., V]. view(..., k·C) puts the k vectors side by side:
  // the concatenation, without a copy.
  Tensor forward(const Tensor& ctx) {
    Shape s = ctx.shape();
    s.back() = k * C;
    return fc2->forward(gelu(fc1->forward(wte->forward(ctx).view(s))));
  }
  int64_t k, C;
  std::shared_ptr<nn::Embedding> wte;
  std::shared_ptr<nn::Linear> fc1, fc2;
};

// A batch of B x T predictions, each from the k characters before it: a window of T + k - 1
// characters gives ctx [B, T, k] (row t holds window[t .. t+k-1]) and the targets [B, T].
Batch contexts(const TextDataset& ds, Split split, int64_t k, Generator& gen) {
  Batch w = ds.get_batch(split, 16, 32 + k - 1, gen);
  std::vector<Tensor> cols;
  for (int64_t j = 0; j < k; ++j) cols.push_back(w.x.narrow(1, j, 32));
  return {stack(cols, 2), w.y.narrow(1, k - 1, 32)};
}

// Mean loss over 40 val batches of 16 x 32 predictions, drawn by Generator(1).
double val_loss(MlpLM& model, const TextDataset& ds) {
  NoGradGuard no_grad;
  Generator gen(1);
  double total = 0;
  for (int i = 0; i < 40; ++i) {
    Batch b = contexts(ds, Split::Val, model.k, gen);
    total += cross_entropy(model.forward(b.x).view({-1, ds.vocab_size()}), b.y.reshape({-1}))
                 .item<double>();
  }
  return total / 40;
}

int main(int argc, char** argv) {
  set_num_threads(1);
  const int steps = argc > 1 ? std::atoi(argv[1]) : 300;
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  const int64_t V = ds.vocab_size();
  for (int64_t k : {3, 8}) {
    manual_seed(1337);
    MlpLM model(V, k, /*C=*/16, /*H=*/128);
    optim::AdamW opt(model.parameters(), optim::AdamWOptions(1e-2).weight_decay(0.0));
    Generator gen(1337);
    std::printf("k = %lld: %lld parameters\n", (long long)k, (long long)model.num_parameters());
    for (int step = 1; step <= steps; ++step) {
      Batch b = contexts(ds, Split::Train, k, gen);
      opt.zero_grad();                                                // chapter 5's loop
      Tensor logits = model.forward(b.x);                             // [16, 32, V]
      Tensor loss = cross_entropy(logits.view({-1, V}), b.y.reshape({-1}));
      loss.backward();
      opt.step();
      if (step % 100 == 0 && (step <= 300 || step == steps))
        std::printf("  step %3d  train loss %.4f  val loss %.4f\n", step, loss.item<double>(),
                    val_loss(model, ds));
    }
  }
  return 0;
}
