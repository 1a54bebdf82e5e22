// Pictures of P̄: the softmax weights of every head over its k slots, one heat map per head,
// layers down and heads across, as the linformer-pytorch package's Visualizer draws them
// (its plot_all_heads). The package's indexing assumes attention at every other layer and
// breaks in decoder mode; here each attention layer is found by its type, and a decoder's
// cross-attentions are drawn as rows of their own.
//
//   attn->visualize = true (or LayerArgs::visualize), run a forward, then
//   std::string svg = lab::heads_svg(named_attentions(stack));
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/linformer/linformer.h"
#include "viz/heatmap.h"

namespace attic::lab {

using NamedAttention = std::pair<std::string, std::shared_ptr<models::linformer::LinformerAttention>>;

// The stack's attention layers with their row titles: "layer 0", and in decoder mode
// "layer 0 context" for the cross-attention after it.
std::vector<NamedAttention> named_attentions(const models::linformer::Linformer& stack);

// The heat maps of every head's P̄ [B, m, k] kept by the last forward, sequence 0, the first
// n_limit queries (0: all), as a grid: one row per attention layer, one column per head.
// Throws attic::Error naming the layer whose heads kept nothing.
std::vector<viz::Heatmap> head_heatmaps(const std::vector<NamedAttention>& layers, int64_t n_limit = 0);
std::string heads_svg(const std::vector<NamedAttention>& layers, int64_t n_limit = 0, int cell = 8);

}  // namespace attic::lab
