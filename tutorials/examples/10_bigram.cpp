// Chapter 10: the bigram model. The next character's logits are the row of a [V, V] table
// picked by the current character, an nn::Embedding(V, V):
//   logits[b, t] = W[x[b, t]]               x [B, T] -> logits [B, T, V]
//   loss = cross_entropy(logits, y)         y [B, T]: x moved one character on
// trained with AdamW on tiny Shakespeare; then what the table learned.
#include <cstdio>

#include "data/data.h"
#include "nn/nn.h"
#include "optim/optim.h"
#include "tensor/threads.h"

using namespace attic;

// Mean loss of model over 40 val batches of 16 x 32 that are the same for every model of
// this chapter (Generator(1)), without a graph.
double val_loss(nn::Embedding& model, const TextDataset& ds) {
  NoGradGuard no_grad;
  Generator gen(1);
  double total = 0;
  for (int i = 0; i < 40; ++i) {
    Batch b = ds.get_batch(Split::Val, 16, 32, gen);
    total += cross_entropy(model(b.x).view({-1, ds.vocab_size()}), b.y.view({-1})).item<double>();
  }
  return total / 40;
}

int main() {
  set_num_threads(1);
  manual_seed(1337);
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  const CharTokenizer& tok = ds.tokenizer();
  const int64_t V = ds.vocab_size();
  nn::Embedding table(V, V);  // W [V, V] ~ N(0, 1)
  optim::AdamW opt(table.parameters(), optim::AdamWOptions(0.1).weight_decay(0.0));
  std::printf("%lld parameters, val loss before training %.4f\n",
              (long long)table.num_parameters(), val_loss(table, ds));

  Generator gen(1337);
  for (int step = 1; step <= 300; ++step) {
    Batch b = ds.get_batch(Split::Train, 16, 32, gen);
    opt.zero_grad();
    Tensor loss = cross_entropy(table(b.x).view({-1, V}), b.y.view({-1}));
    loss.backward();
    opt.step();
    if (step % 50 == 0)
      std::printf("step %3d  train loss %.4f  val loss %.4f\n", step, loss.item<double>(),
                  val_loss(table, ds));
  }

  {  // the whole val split at once, 111539 predictions, to compare with the exercise's table
    NoGradGuard no_grad;
    const Tensor& val = ds.data(Split::Val);
    const int64_t n = val.numel() - 1;
    std::printf("val loss over the whole val split: %.4f\n",
                cross_entropy(table(val.narrow(0, 0, n)), val.narrow(0, 1, n)).item<double>());
  }

  // Row c of softmax(W) is the model's guess for what follows c.
  Tensor probs = softmax(table.weight.detach(), 1);  // [V, V]
  for (char c : std::string("q.\n")) {
    const int64_t id = tok.encode(std::string(1, c))[0];
    auto top = max(probs[id], 0);
    std::printf("after %s: %s with p = %.2f\n", char_literal(c).c_str(),
                char_literal(tok.vocabulary()[size_t(top.indices.item<int64_t>())]).c_str(),
                top.values.item<double>());
  }
  return 0;
}
