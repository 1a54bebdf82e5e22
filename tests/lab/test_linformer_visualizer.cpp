// The Linformer's pictures (lab/linformer_visualizer.h): P̄ is drawn for every head of every
// layer, the decoder's cross-attentions as rows of their own.
#include "helpers.h"
#include "lab/linformer_visualizer.h"
#include "models/linformer.h"
#include "tests/models/linformer/tiny_enc_dec.h"

using namespace attic;
using namespace attic::models::linformer;
using attic::lab::head_heatmaps;
using attic::lab::heads_svg;
using attic::lab::named_attentions;
using attic::lab::NamedAttention;
using attic::testing::error_message;

TEST_CASE("P̄ of every head as a grid of heat maps, the decoder's cross-attentions included", "[linformer][viz]") {
  manual_seed(5);
  LinformerEncDec m(attic::testing::tiny_enc_dec(DecoderMask::Self, Causal::Prefix));
  const std::vector<NamedAttention> layers = named_attentions(m.decoder->stack());
  REQUIRE(layers.size() == 4);
  CHECK(layers[0].first == "layer 0");
  CHECK(layers[1].first == "layer 0 context");
  CHECK(layers[3].first == "layer 1 context");
  CHECK(error_message([&] { head_heatmaps(layers); }).find("kept no P̄") != std::string::npos);
  for (const auto& [name, a] : layers) a->visualize = true;
  m.forward(randint(1, 7, {2, 6}), randint(0, 7, {2, 6}));
  std::vector<viz::Heatmap> maps = head_heatmaps(layers, 4);
  REQUIRE(maps.size() == 8);  // 4 attention layers × 2 heads
  CHECK(maps[3].title == "layer 0 context, head 1");
  CHECK(maps[3].rows == 4);
  CHECK(maps[3].cols == 3);
  for (int r = 0; r < 4; ++r)  // each query's weights over the 3 slots sum to 1
    CHECK(maps[0].values[size_t(r * 3)] + maps[0].values[size_t(r * 3 + 1)] + maps[0].values[size_t(r * 3 + 2)] ==
          Approx(1.0).epsilon(1e-6));
  const std::string svg = heads_svg(layers, 4, 5);
  size_t cells = 0;
  for (size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) ++cells;
  CHECK(cells == 8 * (4 * 3 + 1));  // every cell, and a frame per map
}
