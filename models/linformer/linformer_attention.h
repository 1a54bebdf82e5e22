// Multi-head Linformer attention: linformer_pytorch's `MHAttention` (the linformer-pytorch
// package), here named for what sets it apart from nn::MultiHeadAttention, the softmax one:
// each head is a LinearAttentionHead over k compressed slots. It is also what attic's GPT
// plugs in for --attention=linformer (models/registry.cpp).
//
//   head_h = LinearAttentionHead_h(x W_q,hᵀ, c W_k,hᵀ, c W_v,hᵀ)    c = x, or the encoder's
//                                                                     output in decoder mode
//   y = dropout(concat_h(head_h) W_oᵀ + b_o)        or through w_o_1, w_o_2 (no activation)
//
// Names as the package's state dict: to_q.{h}.weight, to_k.{h}.weight, to_v.{h}.weight
// (no bias), heads.{h}.E.weight, heads.{h}.F.bias, ..., w_o.weight, w_o.bias (or
// w_o_1.*, w_o_2.*). Shared E and F appear under every head that holds them.
#pragma once

#include <memory>
#include <vector>

#include "models/linformer/linear_attention_head.h"
#include "nn/attention/causal_mixer.h"
#include "nn/container.h"
#include "nn/dropout.h"
#include "nn/linear.h"

namespace attic::models::linformer {

struct LinformerAttentionOptions {
  int64_t input_size = 0;  // n
  int64_t dim = 0;         // d, each head's width
  int64_t channels = 0;    // C
  int64_t dim_k = 0;       // k
  int64_t nhead = 1;       // h
  double dropout = 0.0;
  Checkpoint checkpoint_level = Checkpoint::C0;  // C2: each head is recomputed in backward
  Sharing parameter_sharing = Sharing::None;
  bool full_attention = false;
  Causal causal = Causal::None;
  int64_t w_o_intermediate_dim = 0;
  bool decoder_mode = false;
  Method method = Method::Learnable;
  bool no_params_code_std = false;
  // Attend with all heads at once where every head shares E and F (see
  // LinformerAttention::all_heads); false keeps the package's loop over heads, which it equals.
  bool batch_heads = true;
};

class LinformerAttention : public nn::CausalMixer {
 public:
  // shared: the model's one projection under layerwise sharing (E = F = shared for every
  // head); otherwise this layer makes its own: one E and one F for all heads (headwise), one
  // P for both (kv), or a fresh E and F per head (none).
  LinformerAttention(const LinformerAttentionOptions& options,
                     std::shared_ptr<Projection> shared = nullptr);
  // The GPT's sublayer (--attention=linformer): C = n_embd, h = n_head, n = block_size and
  // the options k (64), sharing (headwise), method (learnable), causal (prefix),
  // checkpoint (C0 or C2). Layerwise sharing is the stack's (model=linformer), not a block's.
  explicit LinformerAttention(const nn::MixerOptions& options);

  // x [B, m, C], m ≤ n -> [B, m, C]. In decoder mode args.embeddings [B, m, C] gives K and V.
  Tensor forward(const Tensor& x, const LayerArgs& args);
  // The socket: causal (prefix or leaky) self-attention.
  Tensor forward(const Tensor& x, const nn::MixerContext& ctx = {}) override;
  std::string name() const override { return "linformer"; }

  // Under causal=prefix the attention is an RNN: each head carries its slots K̄ and V̄ [B, k, d]
  // summed over the tokens seen, and a token costs O(k d) whatever the length. Leaky and
  // non-causal attention have no state (their slots read every position).
  struct State : nn::MixerState {
    std::vector<Tensor> SK, SV;  // per head, Σ_{j<length} E[:, j] ⊗ k̃_j and F's, without bias
  };
  std::unique_ptr<nn::MixerState> start_decoding() const override;
  // x [B, t, C] -> [B, t, C], one token after another through the state.
  Tensor step(nn::MixerState& state, const Tensor& x, const nn::MixerContext& ctx) override;

  // The distinct E and F objects over all heads (2·h, 2, 1 or 1 per layer).
  std::vector<const Projection*> projections() const;

  LinformerAttentionOptions options;
  // Keep each head's P̄ on every forward, as LayerArgs::visualize does for one call: the
  // GPT's blocks pass no LayerArgs (lab/linformer_visualizer.h sets it).
  bool visualize = false;
  std::shared_ptr<nn::ModuleList> heads, to_q, to_k, to_v;
  std::shared_ptr<nn::Linear> w_o, w_o_1, w_o_2;
  std::shared_ptr<nn::Dropout> mh_dropout;

 private:
  void build(std::shared_ptr<Projection> shared);
  bool can_batch_heads(const LayerArgs& args) const;
  Tensor all_heads(const Tensor& x, const Tensor& context);
};

}  // namespace attic::models::linformer
