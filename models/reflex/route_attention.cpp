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

namespace {

// router [3·NH], parts[l] [B, NH, T, hs] -> Σ_l router[l·NH + h] · parts[l][:, h]: [B, NH, T, hs]
Tensor route(const Tensor& router, const std::array<Tensor, 3>& parts, int64_t n_head) {
  Tensor out;
  for (int64_t l = 0; l < 3; ++l) {
    Tensor w = router.narrow(0, l * n_head, n_head).view({1, n_head, 1, 1});
    out = l == 0 ? parts[l] * w : out + parts[l] * w;
  }
  return out;
}

}  // namespace

std::array<Tensor, 3> RouteAttention::project(const Tensor& x, const nn::MixerContext& ctx) {
  SourceProjections s = sources(x, ctx);
  return {s.q, route(k_router, s.k, n_head), route(v_router, s.v, n_head)};
}

}  // namespace attic::models::reflex
