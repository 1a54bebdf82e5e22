// Chapter 17: a small encoder-decoder learns to reverse 6 symbols; its attention weights,
// drawn as SVG heatmaps, show how (17_cross_attention.svg, 17_self_attention.svg).
#include <fstream>
#include <iostream>

#include "models/transformer/copy_task.h"
#include "nn/attention/multi_head_attention.h"
#include "tensor/threads.h"
#include "viz/heatmap.h"

using namespace attic;

// The weights [1, NH, Tq, Tk] of one batch item as one heatmap per head.
std::vector<viz::Heatmap> heads(const Tensor& w, const std::string& what,
                                const std::vector<std::string>& qticks,
                                const std::vector<std::string>& kticks) {
  std::vector<viz::Heatmap> maps;
  for (int64_t h = 0; h < w.size(1); ++h) {
    viz::Heatmap m;
    m.values = w.select(0, 0).select(0, h).contiguous().to_vector<double>();
    m.rows = int(w.size(2));
    m.cols = int(w.size(3));
    m.title = what + ", head " + std::to_string(h);
    m.row_label = "decoder position";
    m.col_label = what == "cross-attention" ? "source symbol" : "decoder input";
    m.row_ticks = qticks;
    m.col_ticks = kticks;
    maps.push_back(m);
  }
  return maps;
}

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  manual_seed(10);
  models::CopyTaskOptions o;
  o.length = 6;
  o.symbols = 6;
  o.reverse = true;
  o.steps = 150;
  o.batch_size = 16;
  o.learning_rate = 1e-2;
  o.eval_size = 200;
  o.model.n_layer = 1;
  o.model.n_head = 2;
  o.model.n_embd = 16;
  o.model.hidden = 32;
  models::EncoderDecoderConfig mc = o.model;
  mc.vocab_size = o.symbols + 1;
  mc.max_length = o.length;
  models::EncoderDecoder model(mc);
  models::CopyTaskResult r = models::train_copy_task(o, nullptr, &model);
  std::cout << "reverse 6 symbols, held-out exact match >= 95%: " << (r.exact_match >= 0.95) << "\n";

  // One source, decoded with teacher forcing, recording the weights of both attentions.
  Tensor src = from_vector<int64_t>({1, 2, 3, 4, 5, 6}, {1, 6});
  Tensor tgt_in = from_vector<int64_t>({0, 6, 5, 4, 3, 2}, {1, 6});
  auto& block = *std::static_pointer_cast<nn::DecoderBlock>((*model.decoder)[0]);
  auto self = std::static_pointer_cast<nn::MultiHeadAttention>(block.self_attn);
  auto cross = std::static_pointer_cast<nn::MultiHeadAttention>(block.cross_attn);
  self->record_weights = cross->record_weights = true;
  model.eval();
  NoGradGuard no_grad;
  Tensor pred = argmax(model.forward(src, tgt_in), -1);
  std::cout << "source 1 2 3 4 5 6 -> predicted";
  for (int64_t v : pred.to_vector<int64_t>()) std::cout << " " << v;
  std::cout << "\n";

  const std::vector<std::string> s = {"1", "2", "3", "4", "5", "6"};
  const std::vector<std::string> in = {"<s>", "6", "5", "4", "3", "2"};
  const std::vector<std::string> out = {"→6", "→5", "→4", "→3", "→2", "→1"};
  std::ofstream("17_cross_attention.svg") << viz::heatmaps_svg(heads(cross->last_weights, "cross-attention", out, s));
  std::ofstream("17_self_attention.svg") << viz::heatmaps_svg(heads(self->last_weights, "self-attention", out, in));
  // Causal self-attention puts no weight above the diagonal.
  Tensor w = self->last_weights;
  std::cout << "self-attention weight above the diagonal: "
            << sum(triu(w, 1)).item<double>() << "\n";
  std::cout << "wrote 17_cross_attention.svg and 17_self_attention.svg\n";
  return 0;
}
