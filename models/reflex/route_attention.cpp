#include "models/reflex/route_attention.h"

#include "models/reflex/sources.h"
#include "ops/ops.h"

namespace attic::models::reflex {

RouteAttention::RouteAttention(const nn::MixerOptions& o)
    : EarlierLayersAttention(o) {
  // The fork's init; earlier versions of it drew U(0, 1).
  k_router = register_parameter("k_router", full({3 * o.n_head}, 1.0 / double(3 * o.n_head)));
  v_router = register_parameter("v_router", full({3 * o.n_head}, 1.0 / double(3 * o.n_head)));
  o.args.check_used(name(), "norm_prev");
}

std::array<Tensor, 3> RouteAttention::project(const Tensor& x, const nn::MixerContext& ctx) {
  SourceProjections s = sources(x, ctx);
  // routed_sum: Σ_l router[l·NH + h] · parts[l][:, h] for each head h, one fused pass
  return {s.q, routed_sum(k_router, {s.k.begin(), s.k.end()}),
          routed_sum(v_router, {s.v.begin(), s.v.end()})};
}

}  // namespace attic::models::reflex
