// Chapter 21: which inputs each output of a causal Linformer attention depends on, found by
// autograd. Row t is the gradient of out[t] with respect to the input x: D[t][j] = 1 where
// some entry of d sum(out[t]) / d x[j] is nonzero. n = 8 positions through k = 4 slots; a
// causal attention has no 1 above the diagonal (j > t).
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "models/linformer.h"
#include "viz/heatmap.h"

using namespace attic;
using namespace attic::models::linformer;

const int64_t n = 8, C = 8;

// x [1, n, C] -> D [n, n] row-major, 1 where out[t] depends on x[j].
std::vector<double> dependence(LinformerAttention& attn, const Tensor& x) {
  std::vector<double> D;
  for (int64_t t = 0; t < n; ++t) {
    x.set_grad({});
    sum(attn.forward(x).narrow(1, t, 1)).backward();  // out [1, n, C]
    for (double g : sum(abs(x.grad()), {0, 2}).to_vector<double>()) D.push_back(g > 0 ? 1 : 0);
  }
  return D;
}

int main() {
  std::vector<std::string> ticks;
  for (int64_t j = 0; j < n; ++j) ticks.push_back(std::to_string(j));
  std::vector<viz::Heatmap> maps;
  for (Causal causal : {Causal::Leaky, Causal::Prefix}) {
    manual_seed(1);
    LinformerAttentionOptions o;
    o.input_size = n;
    o.channels = C;
    o.dim = 4;
    o.dim_k = 4;
    o.nhead = 2;
    o.parameter_sharing = Sharing::Headwise;
    o.causal = causal;
    LinformerAttention attn(o);
    const std::vector<double> D = dependence(attn, randn({1, n, C}).requires_grad_());

    int above = 0;
    for (int64_t t = 0; t < n; ++t)
      for (int64_t j = t + 1; j < n; ++j) above += int(D[size_t(t * n + j)]);
    std::printf("%-6s out[0] depends on x[0..7]:", to_string(causal).c_str());
    for (int64_t j = 0; j < n; ++j) std::printf(" %.0f", D[size_t(j)]);
    std::printf("; entries above the diagonal: %d of %lld\n", above, (long long)(n * (n - 1) / 2));

    viz::Heatmap h;
    h.values = D;
    h.rows = h.cols = int(n);
    h.title = to_string(causal) + ": out[t] depends on x[j]";
    h.row_label = "output position t";
    h.col_label = "input position j";
    h.row_ticks = h.col_ticks = ticks;
    maps.push_back(h);
  }
  std::ofstream("21_dependence.svg") << viz::heatmaps_svg(maps);
  return 0;
}
