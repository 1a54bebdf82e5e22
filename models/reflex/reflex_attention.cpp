#include "models/reflex/reflex_attention.h"

#include <algorithm>

#include "models/reflex/sources.h"
#include "nn/attention/declared_options.h"
#include "ops/ops.h"
#include "tensor/error.h"

namespace attic::models::reflex {

void ReflexOptions::bind(util::Options& o) {
  o.bind("norm_prev", norm_prev, "apply the block's ln_1 to x_{i-1} and x_{i-2} too (the fork: raw)");
  o.bind("sa_heads", sa_heads, "heads that attend to ln_1(x_i), from head 0 (default: min(2, n_head))");
  o.bind("prev1_heads", prev1_heads, "heads after them that attend to x_{i-1}; the rest read x_{i-2}");
}

ReflexAttention::ReflexAttention(const nn::MixerOptions& o)
    : ReflexAttention(o, nn::read_options<ReflexOptions>(o.args, "reflex")) {}

ReflexAttention::ReflexAttention(const nn::MixerOptions& o, const ReflexOptions& a)
    : EarlierLayersAttention(o, a.norm_prev) {
  const int64_t H = o.n_head;
  if (!o.args.has("sa_heads") && !o.args.has("prev1_heads")) {
    // The fork slices heads [0:2], [2:4], [4:], so with n_head <= 4 the later groups shrink
    // or vanish silently (n_head = 4: no head reads x_{i−2}). Kept as the default.
    sa_heads = std::min<int64_t>(2, H);
    prev1_heads = std::min<int64_t>(2, H - sa_heads);
  } else {
    sa_heads = o.args.has("sa_heads") ? a.sa_heads : std::min<int64_t>(2, H);
    const bool sa_fits = sa_heads >= 0 && sa_heads <= H;
    prev1_heads = o.args.has("prev1_heads") ? a.prev1_heads : sa_fits ? std::min<int64_t>(2, H - sa_heads) : 0;
    // prev1_heads <= H - sa_heads rather than their sum <= H: a sum of two large values wraps.
    ATTIC_CHECK(sa_fits && prev1_heads >= 0 && prev1_heads <= H - sa_heads,
                "attention reflex: sa_heads ", sa_heads, " and prev1_heads ", prev1_heads,
                " must be >= 0 and sum to at most n_head ", H);
  }
}

// Each head's k and v from its group's source; the attention that follows (softmax(q kᵀ/√hs) v,
// causal) then computes the three groups in one call over all heads, since heads never mix
// before c_proj.
std::array<Tensor, 3> ReflexAttention::project(const Tensor& x, const nn::MixerContext& ctx) {
  SourceProjections s = sources(x, ctx);
  const int64_t ca2 = n_head - sa_heads - prev1_heads;
  // Head h keeps its own slice of its group's keys: heads [0, sa) of source 2 (current),
  // [sa, sa + p1) of source 1 (x_{i−1}), the rest of source 0 (x_{i−2}).
  auto pick = [&](const std::array<Tensor, 3>& t) {
    std::vector<Tensor> parts;
    if (sa_heads > 0) parts.push_back(t[2].narrow(1, 0, sa_heads));
    if (prev1_heads > 0) parts.push_back(t[1].narrow(1, sa_heads, prev1_heads));
    if (ca2 > 0) parts.push_back(t[0].narrow(1, sa_heads + prev1_heads, ca2));
    return parts.size() == 1 ? parts[0] : cat(parts, 1);  // [B, NH, T, hs]
  };
  return {s.q, pick(s.k), pick(s.v)};
}

}  // namespace attic::models::reflex
