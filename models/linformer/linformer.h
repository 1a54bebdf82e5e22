// The Linformer stack: Linformer of the linformer-pytorch package.
//
//   x -> [Residual(LinformerAttention), Residual(FeedForward)] × depth -> y      x, y [B, n, C]
//
// post-norm residuals (models/linformer/residual.h). In decoder mode each layer adds a
// cross-attention over the encoder's output and another feed-forward:
// [self-attention, ff, context attention, ff]. Names: seq.{i}.fn.*, seq.{i}.norm.*, as the
// package's ModuleList `seq`, attention at even i when include_ff.
//
// checkpoint_level C1 recomputes each seq entry in backward (autograd::checkpoint), C2 also
// each head inside the attention; the masks and other LayerArgs pass through either way
// (the package refuses them under C1 and C2).
#pragma once

#include <memory>
#include <vector>

#include "models/linformer/config.h"
#include "models/linformer/feed_forward.h"
#include "models/linformer/linformer_attention.h"
#include "models/linformer/residual.h"
#include "nn/container.h"

namespace attic::models::linformer {

class Linformer : public nn::Module {
 public:
  explicit Linformer(const LinformerOptions& options);

  // x [B, n, C] with exactly n = input_size positions -> [B, n, C].
  Tensor forward(const Tensor& x, const LayerArgs& args = {});

  // The attention sublayers, in order (for P̄ and the sharing counts).
  std::vector<std::shared_ptr<LinformerAttention>> attentions() const;
  // Distinct E and F objects over every head of every layer: 2·h·L, 2·L, L or 1.
  int64_t distinct_projections() const;

  LinformerOptions options;
  std::shared_ptr<Projection> shared;  // the one P of layerwise sharing (else unused, as the package's)
  std::shared_ptr<nn::ModuleList> seq;
};

}  // namespace attic::models::linformer
