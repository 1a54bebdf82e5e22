// Chapter 10: the GPT piece by piece. One small GPT (2 blocks, 4 heads, C = 32, T = 32),
// trained five times on the same budget: whole, and without positions (x = wte[idx]),
// without the residual (x = attn(ln_1(x)) instead of x + attn(ln_1(x)), the same for mlp),
// without LayerNorm (ln_1, ln_2, ln_f skipped), and with one head of hs = 32 for four of 8.
// Arguments (optional): a seed (default 1337) and a number of steps (default 300).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "data/data.h"
#include "models/gpt.h"
#include "tensor/threads.h"
#include "viz/line_plot.h"

using namespace attic;

struct Pieces {
  const char* name;
  bool positions = true, residual = true, layernorm = true;
  int64_t n_head = 4;
};

// idx [B, T] -> logits [B, T, V]: GPT::forward without the pieces p leaves out.
Tensor forward(models::GPT& m, const Pieces& p, const Tensor& idx) {
  Tensor x = m.wte->forward(idx);  // [B, T, C]
  if (p.positions) x = x + m.wpe->forward(arange(0, double(idx.size(1)), 1, kInt64));
  auto norm = [&](nn::LayerNorm& ln, const Tensor& t) { return p.layernorm ? ln(t) : t; };
  for (size_t i = 0; i < m.h->size(); ++i) {
    auto block = m.h->at<models::Block>(i);
    Tensor a = block->attn->forward(norm(*block->ln_1, x));
    x = p.residual ? x + a : a;
    Tensor f = block->mlp->forward(norm(*block->ln_2, x));
    x = p.residual ? x + f : f;
  }
  return m.lm_head->forward(norm(*m.ln_f, x));
}

// Mean loss over 40 val batches of 16 x 32, drawn by Generator(1) as for every model here.
double val_loss(models::GPT& m, const Pieces& p, const TextDataset& ds) {
  NoGradGuard no_grad;
  Generator gen(1);
  double total = 0;
  for (int i = 0; i < 40; ++i) {
    Batch b = ds.get_batch(Split::Val, 16, 32, gen);
    total += cross_entropy(forward(m, p, b.x).view({-1, ds.vocab_size()}), b.y.view({-1}))
                 .item<double>();
  }
  return total / 40;
}

int main(int argc, char** argv) {
  set_num_threads(1);
  const uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1337;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 300;
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  const std::vector<Pieces> variants = {{"full"},
                                        {"no positions", false},
                                        {"no residual", true, false},
                                        {"no LayerNorm", true, true, false},
                                        {"one head", true, true, true, 1}};
  const char* colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"};
  std::vector<viz::Series> curves;
  std::printf("seed %llu, %d steps of 16 x 32 characters\n", (unsigned long long)seed, steps);
  for (size_t v = 0; v < variants.size(); ++v) {
    const Pieces& p = variants[v];
    manual_seed(seed);
    models::GPTConfig cfg;
    cfg.vocab_size = ds.vocab_size();
    cfg.block_size = 32;
    cfg.n_layer = 2;
    cfg.n_embd = 32;
    cfg.n_head = p.n_head;
    models::GPT m(cfg);
    optim::AdamW opt(m.parameters(), optim::AdamWOptions(3e-3).betas({0.9, 0.99}));
    Generator gen(seed);
    curves.push_back({p.name, colors[v], {}});
    double window = 0;  // the train loss summed over the last 10 steps
    for (int step = 1; step <= steps; ++step) {
      Batch b = ds.get_batch(Split::Train, 16, 32, gen);
      opt.zero_grad();
      Tensor loss = cross_entropy(forward(m, p, b.x).view({-1, cfg.vocab_size}), b.y.view({-1}));
      loss.backward();
      opt.step();
      window += loss.item<double>();
      if (step % 10 == 0)  // plotted to the 4 decimals printed: the same picture in every build
        curves.back().points.push_back({double(step), std::round(window / 10 * 1e4) / 1e4}), window = 0;
    }
    if (v == 0) {  // with every piece in, forward() is GPT::forward
      Batch b = ds.get_batch(Split::Val, 2, 32, gen);
      Tensor diff = max(abs(forward(m, p, b.x) - m.forward(b.x, b.y).logits));
      std::printf("full == GPT::forward: %s\n", diff.item<float>() == 0 ? "true" : "false");
    }
    std::printf("%-13s train (mean of the last 10 steps) %.4f  val %.4f\n", p.name,
                curves.back().points.back().second, val_loss(m, p, ds));
  }
  std::ofstream("10_gpt_pieces.svg")
      << viz::line_plot_svg(curves, "a 2-block GPT with one piece taken out", "step",
                            "train loss, mean of 10 steps");
  return 0;
}
