#include "lab/linformer_visualizer.h"

#include <algorithm>

namespace attic::lab {

using namespace models::linformer;

std::vector<NamedAttention> named_attentions(const models::linformer::Linformer& stack) {
  std::vector<NamedAttention> out;
  int64_t layer = -1;
  for (const auto& a : stack.attentions()) {
    if (!a->options.decoder_mode) ++layer;
    out.emplace_back("layer " + std::to_string(layer) + (a->options.decoder_mode ? " context" : ""), a);
  }
  return out;
}

std::vector<viz::Heatmap> head_heatmaps(const std::vector<NamedAttention>& layers, int64_t n_limit) {
  ATTIC_CHECK(!layers.empty(), "linformer heads: no attention layers to draw");
  std::vector<viz::Heatmap> maps;
  for (const auto& [title, attn] : layers) {
    for (size_t h = 0; h < attn->heads->size(); ++h) {
      const Tensor& p = attn->heads->at<LinearAttentionHead>(h)->P_bar;  // [B, m, k]
      ATTIC_CHECK(p.defined(), "linformer heads: ", title, " head ", h, " kept no P̄; run a forward with "
                  "visualize on first");
      const int64_t m = n_limit > 0 ? std::min(n_limit, p.size(1)) : p.size(1);
      Tensor rows = p.select(0, 0).narrow(0, 0, m).to(DType::Float64).to(Device::CPU);  // [m, k]
      viz::Heatmap map;
      map.values = rows.contiguous().to_vector<double>();
      map.rows = int(m);
      map.cols = int(p.size(2));
      map.title = title + ", head " + std::to_string(h);
      map.row_label = "query";
      map.col_label = attn->options.full_attention ? "key" : "slot";
      maps.push_back(std::move(map));
    }
  }
  return maps;
}

std::string heads_svg(const std::vector<NamedAttention>& layers, int64_t n_limit, int cell) {
  const int heads = int(layers.front().second->heads->size());
  return viz::heatmap_grid_svg(head_heatmaps(layers, n_limit), heads, cell);
}

}  // namespace attic::lab
