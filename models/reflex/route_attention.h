// Route attention (Vadimbuildercxx/reflex_attention, model.py, attention_type = "route"): at
// block i >= 2 every head's keys and values are a learned sum over three sources,
//
//   K_h = Σ_l α_{l,h} K_{l,h}      V_h = Σ_l β_{l,h} V_{l,h}      l over (x_{i−2}, x_{i−1}, ln_1(x_i))
//   y = c_proj(causal softmax(Q Kᵀ / √hs) V)                      Q from ln_1(x_i) only
//
// with α = k_router and β = v_router, one weight per (source, head): K_router and V_router
// of the write-up. Heads are not mixed: head h sums only its own slices. The weights are raw
// (no softmax, any sign), as in the fork. Blocks 0 and 1 run classic attention; they hold
// routers too, unused, so that every block has the same parameter names.
#pragma once

#include "models/reflex/sources.h"
#include "util/options.h"

namespace attic::models::reflex {

// Its options (--attention_options).
struct RouteOptions {
  bool norm_prev = false;
  void bind(util::Options& o);
};

class RouteAttention : public EarlierLayersAttention {
 public:
  // k_router = v_router = 1/(3·NH) everywhere: at init K_h and V_h are (1/NH) times the
  // mean of the three sources' keys and values. options.args: norm_prev (false).
  explicit RouteAttention(const nn::MixerOptions& options);
  std::string name() const override { return "route"; }

  // [3·NH], entry l·NH + h weighting source l for head h. 1-d, so nanoGPT's
  // configure_optimizers puts them in the group without weight decay.
  Tensor k_router, v_router;

  // x [B, T, C] = ln_1(x_i) -> [B, T, C]; from block 2 on the routed q, k, v go to the
  // attention packed, as c_attn's output does in classic attention.
  Tensor forward(const Tensor& x, const nn::MixerContext& ctx = {}) override;

 private:
  // x [B, T, C] -> [B, T, 3C]: q | K | V, each head's K and V the routed sums over the three
  // sources (routed_sum_packed).
  Tensor routed_qkv(const Tensor& x, const nn::MixerContext& ctx);
  // The same as views [B, NH, T, hs], for step (generation with the KV cache).
  std::array<Tensor, 3> project(const Tensor& x, const nn::MixerContext& ctx) override;
};

}  // namespace attic::models::reflex
