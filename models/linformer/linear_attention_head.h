// One Linformer head: LinearAttentionHead of the linformer-pytorch package.
//
//   K̄ = E(K) [B, k, d]      V̄ = F(V) [B, k, d]      (models/linformer/projection.h)
//   P̄ = softmax(Q K̄ᵀ / √d)  [B, n, k]                 softmax over k slots, not n keys
//   y  = dropout(P̄) V̄       [B, n, d]
//
// Each row of P̄ still sums to 1: a query distributes its attention over k summaries of the
// sequence instead of over its n positions, so time and memory are O(n k) instead of O(n²)
// (Wang et al. 2020, "Linformer", section 4).
#pragma once

#include <memory>

#include "models/linformer/config.h"
#include "models/linformer/projection.h"
#include "nn/module.h"

namespace attic::models::linformer {

// What a Linformer layer takes besides x, as the package passes **kwargs.
struct LayerArgs {
  Tensor embeddings;       // [B, n, C]: the encoder's output, read by decoder-mode attention
  Tensor input_mask;       // [B, n] bool, true = keep: other rows of K and V become zero
  Tensor embeddings_mask;  // [B, n] bool: other rows of Q become zero
  bool visualize = false;  // keep each head's P̄ (LinearAttentionHead::P_bar)
};

class LinearAttentionHead : public nn::Module {
 public:
  // d: the head width; E and F may be shared with other heads (the same object). A
  // learnable or convolution E is the child "E"; a no_params E is the buffer "E" (the
  // package keeps it as a plain tensor in no state dict; attic saves it, so that a model
  // reloads with the same projection). F likewise.
  LinearAttentionHead(int64_t d, double dropout, std::shared_ptr<Projection> E,
                      std::shared_ptr<Projection> F, Causal causal, bool full_attention);

  // Q, K, V [B, m, d] with m ≤ n -> [B, m, d]. Positions past m count as zero rows of K and
  // V (the package's Padder). full_attention: softmax(Q Kᵀ/√d) V over all m keys, with the
  // usual m × m causal triangle under either causal mode.
  Tensor forward(const Tensor& Q, const Tensor& K, const Tensor& V, const LayerArgs& args = {});

  int64_t d;
  Causal causal;
  bool full_attention;
  double dropout;
  std::shared_ptr<Projection> E, F;
  Tensor P_bar;  // [B, m, k] (or [B, m, m]): the softmax of the last forward with visualize
};

}  // namespace attic::models::linformer
