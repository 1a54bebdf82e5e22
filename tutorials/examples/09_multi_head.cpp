// Chapter 9: multi-head attention. With C = NH · hs, head h attends with its own hs columns
// of q, k and v. CausalSelfAttention reshapes [B, T, C] into [B, NH, T, hs] with views and
// runs all heads in one batched matmul; the check runs the heads one at a time instead.
// The views are drawn as coloured blocks in 09_head_reshape.svg.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>

#include "models/gpt.h"
#include "viz/svg.h"

using namespace attic;

// One causal head: q, k, v [B, T, hs] -> [B, T, hs].
Tensor one_head(const Tensor& q, const Tensor& k, const Tensor& v) {
  const int64_t T = q.size(1), hs = q.size(2);
  Tensor att = matmul(q, k.transpose(1, 2)) * (1.0 / std::sqrt(double(hs)));  // [B, T, T]
  att = masked_fill(att, triu(ones({T, T}, kBool), 1), -std::numeric_limits<double>::infinity());
  return matmul(softmax(att, -1), v);
}

// g [G, R, K] as G blocks of R × K cells, block j moved by (j·gx, j·gy) from (x0, 36), under
// a title. Each cell shows the number it holds; colour = head (v mod C) / hs.
std::string panel(const Tensor& g, int x0, int gx, int gy, const std::string& title, int64_t C,
                  int64_t hs) {
  std::string out = "<text x=\"" + std::to_string(x0) + "\" y=\"20\" font-size=\"13\">" +
                    viz::svg_escape(title) + "</text>\n";
  char buf[320];
  for (int64_t j = 0; j < g.size(0); ++j)
    for (int64_t r = 0; r < g.size(1); ++r)
      for (int64_t k = 0; k < g.size(2); ++k) {
        const int64_t v = int64_t(g[j][r][k].item<float>());
        const int x = int(x0 + j * gx + 28 * k), y = int(36 + j * gy + 28 * r);
        std::snprintf(buf, sizeof buf,
                      "<rect x=\"%d\" y=\"%d\" width=\"28\" height=\"28\" fill=\"%s\" "
                      "fill-opacity=\"0.45\" stroke=\"white\"/>\n<text x=\"%d\" y=\"%d\" "
                      "font-size=\"12\" text-anchor=\"middle\">%lld</text>\n",
                      x, y, viz::series_color(size_t(v % C / hs)), x + 14, y + 19, (long long)v);
        out += buf;
      }
  return out;
}

int main() {
  std::cout << std::boolalpha;
  // 1. The views of attention.cpp on a small qkv [B, T, 3C] whose numbers are their own
  //    positions in storage: B = 1, T = 3, C = 6, NH = 2, hs = 3.
  {
    const int64_t B = 1, T = 3, C = 6, NH = 2, hs = 3;
    Tensor qkv = arange(0, double(B * T * 3 * C)).view({B, T, 3 * C});
    std::vector<Tensor> parts = split(qkv, C, 2);    // q, k, v: three [B, T, C] views
    Tensor split_q = parts[0].view({B, T, NH, hs});  // column h·hs + i becomes [h, i]
    Tensor q = split_q.transpose(1, 2);              // [B, NH, T, hs]
    for (auto [name, t] : {std::pair{"qkv", qkv}, {"q part", parts[0]}, {"k part", parts[1]},
                           {"view", split_q}, {"transpose", q}})
      std::cout << name << ": shape " << str(t.shape()) << ", strides " << str(t.strides())
                << ", offset " << t.storage_offset() << ", shares qkv's storage "
                << t.shares_storage(qkv) << "\n";
    std::cout << "head 1 of q:\n" << q[0][1] << "\n";
    std::ofstream("09_head_reshape.svg")
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"700\" height=\"240\" "
           "font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        << panel(parts[0], 10, 0, 0, "q part: [B, T, C]", 3 * C, hs)
        << panel(split_q[0].transpose(0, 1), 230, 28 * hs + 12, 0,  // heads side by side
                 "view: [B, T, NH, hs]", 3 * C, hs)
        << panel(q[0], 470, 0, 28 * T + 12, "transpose(1, 2): [B, NH, T, hs]", 3 * C, hs)
        << "</svg>\n";
  }

  // 2. The check: the heads one at a time, their outputs side by side, then c_proj.
  manual_seed(0);
  models::GPTConfig cfg;
  cfg.block_size = 8;
  cfg.n_embd = 8;
  cfg.n_head = 2;
  nn::CausalSelfAttention attn(models::mixer_options(cfg));
  const int64_t B = 2, T = 5, C = 8, hs = 4;
  Tensor x = randn({B, T, C});
  std::vector<Tensor> parts = split(attn.c_attn->forward(x), C, 2);
  std::vector<Tensor> heads;
  for (int64_t h = 0; h < 2; ++h)
    heads.push_back(one_head(parts[0].narrow(2, h * hs, hs), parts[1].narrow(2, h * hs, hs),
                             parts[2].narrow(2, h * hs, hs)));
  Tensor y_loop = attn.c_proj->forward(cat(heads, 2));  // [B, T, C]
  Tensor y = attn.forward(x);
  std::cout << "output " << str(y.shape()) << ", max |module - per-head loop| < 1e-6: "
            << (max(abs(y - y_loop)).item<float>() < 1e-6f) << "\n";
  return 0;
}
