// Chapter 11: the GPT's forward, one module at a time, on the laptop recipe's model, with the
// shape after each step; the same steps drawn as 11_gpt_block.svg (bottom to top, as in
// the GPT-2 paper's figure):
//   x = wte[idx] + wpe[0..T-1]                  [B, T, C]
//   x = x + attn(ln_1(x)); x = x + mlp(ln_2(x))  per block, n_layer times
//   logits = lm_head(ln_f(x))                    [B, T, V]
#include <iostream>

#include "models/gpt.h"
#include "tensor/threads.h"
#include "viz/diagram.h"

using namespace attic;

const int kMid = 230;  // the x of the main column

// Prints "name shape" for t, the output of one step, and returns t.
Tensor show(const std::string& name, const Tensor& t) {
  std::cout << name << " " << str(t.shape()) << "\n";
  return t;
}

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  manual_seed(1337);
  models::GPTConfig cfg;  // the laptop recipe, config/shakespeare_char_cpu.cfg
  cfg.block_size = 64;
  cfg.vocab_size = 65;
  cfg.n_layer = 4;
  cfg.n_head = 4;
  cfg.n_embd = 128;
  cfg.bias = false;
  models::GPT model(cfg);
  model.eval();
  NoGradGuard no_grad;

  // B = 2 sequences of T = 64 random characters.
  Tensor idx = show("idx", randint(0, cfg.vocab_size, {2, 64}));
  Tensor pos = arange(0, 64, 1, TensorOptions(kInt64));
  Tensor tok = show("wte(idx)", model.wte->forward(idx));
  Tensor where = show("wpe(pos)", model.wpe->forward(pos));
  Tensor x = show("x = wte(idx) + wpe(pos)", tok + where);  // [B, T, C] + [T, C] broadcasts
  for (size_t i = 0; i < model.h->size(); ++i) {
    const auto& block = model.h->at<models::Block>(i);
    const bool first = i == 0;
    Tensor a = block->attn->forward(block->ln_1->forward(x));
    if (first) show("  h.0: attn(ln_1(x))", a);
    x = x + a;
    Tensor m = block->mlp->forward(block->ln_2->forward(x));
    if (first) show("  h.0: mlp(ln_2(x))", m);
    x = x + m;
    if (first) std::cout << "  ... h.1, h.2, h.3 the same\n";
  }
  Tensor logits = show("logits = lm_head(ln_f(x))", model.lm_head->forward(model.ln_f->forward(x)));
  Tensor library = model.forward(idx, idx).logits;  // with targets: every position's logits
  std::cout << "equal to model.forward: " << (max(abs(logits - library)).item<float>() < 1e-6)
            << "\n";

  // The picture, bottom to top.
  viz::Diagram d(520, 784);
  d.text(260, 22, "nanoGPT's GPT (models/gpt/): one forward", 15);
  d.begin_group(0, 24);
  // Embeddings.
  d.text(kMid - 70, 740, "idx [B, T]", 13);
  d.text(kMid + 70, 740, "pos = 0..T-1 [T]", 13);
  d.arrow(kMid - 70, 726, kMid - 70, 688);
  d.arrow(kMid + 70, 726, kMid + 70, 688);
  d.box(kMid - 70, 670, 110, "wte", "Embedding [V, C]", "#e8f0d8");
  d.box(kMid + 70, 670, 110, "wpe", "Embedding [block_size, C]", "#e8f0d8");
  d.arrow(kMid - 70, 653, kMid - 9, 615, "[B, T, C]", -8);
  d.arrow(kMid + 70, 653, kMid + 9, 615, "[T, C]");
  d.plus(kMid, 606);
  d.arrow(kMid, 595, kMid, 563, "x [B, T, C]");
  // One block, drawn inside a dashed frame; the residual path (red) goes around each sublayer.
  d.rect(90, 190, 330, 366, "none", 1, "#888", "6,4", 8);
  d.text(98, 208, "block h.i,", 12, "#555", "start");
  d.text(98, 222, "n_layer times", 12, "#555", "start");
  d.arrow(kMid, 563, kMid, 520);
  d.box(kMid, 503, 120, "ln_1", "LayerNorm(C)");
  d.arrow(kMid, 486, kMid, 453, "[B, T, C]");
  d.box(kMid, 436, 160, "attn", "causal self-attention");
  d.arrow(kMid, 419, kMid, 387, "[B, T, C]");
  d.plus(kMid, 376);
  d.polyline({{kMid, 535}, {380, 535}, {380, 376}, {kMid + 11, 376}}, "#d62728");
  d.arrow(kMid, 365, kMid, 333);
  d.box(kMid, 316, 120, "ln_2", "LayerNorm(C)");
  d.arrow(kMid, 299, kMid, 266, "[B, T, C]");
  d.box(kMid, 249, 160, "mlp", "C -> 4C, GELU, 4C -> C");
  d.arrow(kMid, 232, kMid, 219);
  d.plus(kMid, 208);
  d.polyline({{kMid, 350}, {380, 350}, {380, 208}, {kMid + 11, 208}}, "#d62728");
  d.text(386, 460, "residual", 11, "#d62728", "start");
  d.text(386, 474, "stream", 11, "#d62728", "start");
  // The head.
  d.arrow(kMid, 197, kMid, 163, "[B, T, C]");
  d.box(kMid, 146, 120, "ln_f", "LayerNorm(C)");
  d.arrow(kMid, 129, kMid, 96, "[B, T, C]");
  d.box(kMid, 79, 140, "lm_head", "x @ wte.weightᵀ", "#f5e3d0");
  d.arrow(kMid, 62, kMid, 40);
  d.text(kMid, 32, "logits [B, T, V]", 13);
  // Weight tying: lm_head's weight is wte's.
  d.polyline({{kMid - 70, 79}, {40, 79}, {40, 670}, {kMid - 125, 670}}, "#2ca02c", false, "4,3");
  d.text(48, 380, "one tensor", 11, "#2ca02c", "start");
  d.text(48, 394, "[V, C]:", 11, "#2ca02c", "start");
  d.text(48, 408, "tied", 11, "#2ca02c", "start");
  d.end_group();
  d.write("11_gpt_block.svg");
  std::cout << "wrote 11_gpt_block.svg\n";
  return 0;
}
