#include "lab/reflex_visualizer.h"

#include <cstdio>

#include "models/gpt/gpt.h"
#include "models/reflex/route_attention.h"
#include "viz/heatmap.h"

namespace attic::lab {

using models::Block;
using models::reflex::RouteAttention;

std::string routers_svg(const models::GPT& gpt, int cell) {
  std::vector<viz::Heatmap> maps;
  for (size_t i = 2; i < gpt.h->size(); ++i) {
    auto route = std::dynamic_pointer_cast<RouteAttention>(gpt.h->at<Block>(i)->attn);
    if (!route) continue;
    const int H = int(route->n_head);
    for (const auto& [name, router] : {std::pair{"K_router", route->k_router}, {"V_router", route->v_router}}) {
      viz::Heatmap m;
      m.values = router.to(Device::CPU).to(kFloat64).to_vector<double>();  // [3·NH], l·NH + h
      m.rows = 3;
      m.cols = H;
      char title[64];
      std::snprintf(title, sizeof title, "block %zu %s", i, name);
      m.title = title;
      m.row_label = "source";
      m.col_label = "head";
      m.row_ticks = {"x_{i-2}", "x_{i-1}", "x_i"};
      for (int h = 0; h < H; ++h) {
        char tick[16];
        std::snprintf(tick, sizeof tick, "h%d", h + 1);
        m.col_ticks.push_back(tick);
      }
      m.diverging = m.annotate = true;
      maps.push_back(std::move(m));
    }
  }
  ATTIC_CHECK(!maps.empty(), "routers_svg: the model has no route attention in blocks 2 and later");
  return viz::heatmap_grid_svg(maps, 2, cell);
}

}  // namespace attic::lab
