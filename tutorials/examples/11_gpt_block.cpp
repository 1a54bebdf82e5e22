// Chapter 11: the GPT's forward, one module at a time, on the laptop recipe's model, with the
// shape after each step; the same steps drawn as 11_gpt_block.svg (bottom to top, as in
// the GPT-2 paper's figure):
//   x = wte[idx] + wpe[0..T-1]                  [B, T, C]
//   x = x + attn(ln_1(x)); x = x + mlp(ln_2(x))  per block, n_layer times
//   logits = lm_head(ln_f(x))                    [B, T, V]
#include <fstream>
#include <iostream>
#include <sstream>

#include "models/gpt.h"
#include "tensor/threads.h"
#include "viz/svg.h"

using namespace attic;

std::ostringstream svg;
const int kMid = 230;  // the x of the main column

// Prints "name shape" for t, the output of one step, and returns t.
Tensor show(const std::string& name, const Tensor& t) {
  std::cout << name << " " << str(t.shape()) << "\n";
  return t;
}

// A module as a box of width w centered at (x, y), with its name and a second line.
void box(int x, int y, int w, const std::string& name, const std::string& note,
         const char* fill = "#dbe8f5") {
  svg << "<rect x='" << x - w / 2 << "' y='" << y - 17 << "' width='" << w
      << "' height='34' rx='5' fill='" << fill << "' stroke='#333'/>\n"
      << "<text x='" << x << "' y='" << y - 1 << "' font-size='14'>" << viz::svg_escape(name)
      << "</text>\n<text x='" << x << "' y='" << y + 12 << "' font-size='10' fill='#555'>"
      << viz::svg_escape(note) << "</text>\n";
}

// The residual sum: a circle with a plus, centered at (x, y).
void plus(int x, int y) {
  svg << "<circle cx='" << x << "' cy='" << y << "' r='11' fill='white' stroke='#333'/>\n"
      << "<text x='" << x << "' y='" << y + 5 << "' font-size='16'>+</text>\n";
}

// An arrow from (x1, y1) to (x2, y2), with the shape of what it carries written beside it.
void arrow(int x1, int y1, int x2, int y2, const std::string& shape, int dx = 8) {
  svg << "<line x1='" << x1 << "' y1='" << y1 << "' x2='" << x2 << "' y2='" << y2
      << "' stroke='#333' stroke-width='1.5' marker-end='url(#arrow)'/>\n";
  if (!shape.empty())
    svg << "<text x='" << (x1 + x2) / 2 + dx << "' y='" << (y1 + y2) / 2 + 4
        << "' font-size='11' fill='#1f77b4' text-anchor='" << (dx < 0 ? "end" : "start") << "'>"
        << viz::svg_escape(shape) << "</text>\n";
}

// A polyline with an arrow head at its end: the residual path around a sublayer.
void skip(const std::string& points) {
  svg << "<polyline points='" << points << "' fill='none' stroke='#d62728' stroke-width='1.5' "
      << "marker-end='url(#arrow)'/>\n";
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
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='520' height='784' "
         "font-family='sans-serif' text-anchor='middle'>\n"
      << "<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='7' "
         "markerHeight='7' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#333'/></marker></defs>\n"
      << "<rect width='520' height='784' fill='white'/>\n"
      << "<text x='260' y='22' font-size='15'>nanoGPT's GPT (models/gpt/): one forward</text>\n"
      << "<g transform='translate(0,24)'>\n";
  // Embeddings.
  svg << "<text x='" << kMid - 70 << "' y='740' font-size='13'>idx [B, T]</text>\n"
      << "<text x='" << kMid + 70 << "' y='740' font-size='13'>pos = 0..T-1 [T]</text>\n";
  arrow(kMid - 70, 726, kMid - 70, 688, "");
  arrow(kMid + 70, 726, kMid + 70, 688, "");
  box(kMid - 70, 670, 110, "wte", "Embedding [V, C]", "#e8f0d8");
  box(kMid + 70, 670, 110, "wpe", "Embedding [block_size, C]", "#e8f0d8");
  arrow(kMid - 70, 653, kMid - 9, 615, "[B, T, C]", -8);
  arrow(kMid + 70, 653, kMid + 9, 615, "[T, C]");
  plus(kMid, 606);
  arrow(kMid, 595, kMid, 563, "x [B, T, C]");
  // One block, drawn inside a dashed frame.
  svg << "<rect x='90' y='190' width='330' height='366' rx='8' fill='none' stroke='#888' "
         "stroke-dasharray='6,4'/>\n"
      << "<text x='98' y='208' font-size='12' text-anchor='start' fill='#555'>block h.i,</text>\n"
      << "<text x='98' y='222' font-size='12' text-anchor='start' fill='#555'>n_layer times</text>\n";
  arrow(kMid, 563, kMid, 520, "");
  box(kMid, 503, 120, "ln_1", "LayerNorm(C)");
  arrow(kMid, 486, kMid, 453, "[B, T, C]");
  box(kMid, 436, 160, "attn", "causal self-attention");
  arrow(kMid, 419, kMid, 387, "[B, T, C]");
  plus(kMid, 376);
  skip(std::to_string(kMid) + ",535 380,535 380,376 " + std::to_string(kMid + 11) + ",376");
  arrow(kMid, 365, kMid, 333, "");
  box(kMid, 316, 120, "ln_2", "LayerNorm(C)");
  arrow(kMid, 299, kMid, 266, "[B, T, C]");
  box(kMid, 249, 160, "mlp", "C -> 4C, GELU, 4C -> C");
  arrow(kMid, 232, kMid, 219, "");
  plus(kMid, 208);
  skip(std::to_string(kMid) + ",350 380,350 380,208 " + std::to_string(kMid + 11) + ",208");
  svg << "<text x='386' y='460' font-size='11' fill='#d62728' text-anchor='start'>residual</text>\n"
      << "<text x='386' y='474' font-size='11' fill='#d62728' text-anchor='start'>stream</text>\n";
  // The head.
  arrow(kMid, 197, kMid, 163, "[B, T, C]");
  box(kMid, 146, 120, "ln_f", "LayerNorm(C)");
  arrow(kMid, 129, kMid, 96, "[B, T, C]");
  box(kMid, 79, 140, "lm_head", "x @ wte.weightᵀ", "#f5e3d0");
  arrow(kMid, 62, kMid, 40, "");
  svg << "<text x='" << kMid << "' y='36' font-size='13' dy='-4'>logits [B, T, V]</text>\n";
  // Weight tying: lm_head's weight is wte's.
  svg << "<polyline points='" << kMid - 70 << ",79 40,79 40,670 " << kMid - 125
      << ",670' fill='none' stroke='#2ca02c' stroke-width='1.5' stroke-dasharray='4,3'/>\n"
      << "<text x='48' y='380' font-size='11' fill='#2ca02c' text-anchor='start'>one tensor</text>\n"
      << "<text x='48' y='394' font-size='11' fill='#2ca02c' text-anchor='start'>[V, C]:</text>\n"
      << "<text x='48' y='408' font-size='11' fill='#2ca02c' text-anchor='start'>tied</text>\n"
      << "</g>\n</svg>\n";
  std::ofstream("11_gpt_block.svg") << svg.str();
  std::cout << "wrote 11_gpt_block.svg\n";
  return 0;
}
