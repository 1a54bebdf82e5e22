#include "models/reflex/route_attention.h"

#include "models/reflex/sources.h"
#include "nn/attention/declared_options.h"
#include "ops/ops.h"

namespace attic::models::reflex {

void RouteOptions::bind(util::Options& o) {
  o.bind("norm_prev", norm_prev, "apply the block's ln_1 to x_{i-1} and x_{i-2} too (the fork: raw)");
}

RouteAttention::RouteAttention(const nn::MixerOptions& o)
    : EarlierLayersAttention(o, nn::read_options<RouteOptions>(o.args, "route").norm_prev) {
  // The fork's init; earlier versions of it drew U(0, 1).
  k_router = register_parameter("k_router", full({3 * o.n_head}, 1.0 / double(3 * o.n_head)));
  v_router = register_parameter("v_router", full({3 * o.n_head}, 1.0 / double(3 * o.n_head)));
}

Tensor RouteAttention::routed_qkv(const Tensor& x, const nn::MixerContext& ctx) {
  const PackedSources s = packed_sources(x, ctx);
  // Σ_l router[l·NH + h] · k_l[:, h] (and v) for each head h, one fused pass each, written
  // beside q into one [B, T, 3C]
  return routed_sum_packed(k_router, v_router, s.qkv, {s.kv[0], s.kv[1]}, n_head);
}

// Blocks from 2 on: the routed q, k, v straight into the packed attention.
Tensor RouteAttention::forward(const Tensor& x, const nn::MixerContext& ctx) {
  if (layer < 2) return CausalSelfAttention::forward(x, ctx);
  return attend_packed(routed_qkv(x, ctx));
}

std::array<Tensor, 3> RouteAttention::project(const Tensor& x, const nn::MixerContext& ctx) {
  return split_qkv(routed_qkv(x, ctx), n_head);
}

}  // namespace attic::models::reflex
