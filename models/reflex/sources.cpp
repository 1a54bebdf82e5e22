#include "models/reflex/sources.h"

#include "ops/ops.h"
#include "tensor/error.h"

namespace attic::models::reflex {

PackedSources project_packed(nn::Linear& c_attn, const Tensor& x, const nn::MixerContext& ctx,
                             bool norm_prev, const std::string& who) {
  const int64_t C = x.size(-1);
  const Tensor before[2] = {ctx.back(2), ctx.back(1)};  // x_{i−2}, x_{i−1}
  for (int n = 0; n < 2; ++n) {
    ATTIC_CHECK(before[n].defined(), who, " at layer ", ctx.layer,
                " needs the inputs of the two blocks before it (MixerContext.earlier holds ",
                ctx.earlier.size(), ")");
    ATTIC_CHECK(before[n].shape() == x.shape(), who, ": the input of block ", ctx.layer - 2 + n,
                " is ", str(before[n].shape()), ", the current stream ", str(x.shape()));
  }
  ATTIC_CHECK(!norm_prev || ctx.pre_norm != nullptr, who,
              ": norm_prev needs the block's ln_1 (MixerContext.pre_norm), and none was given");

  PackedSources s;
  s.qkv = c_attn.forward(x);  // [B, T, 3C]
  // The key and value rows of c_attn: W [3C, C] -> W_kv [2C, C] (a view; its gradient lands
  // in W's rows C .. 3C−1).
  const Tensor w_kv = c_attn.weight.narrow(0, C, 2 * C);
  const Tensor b_kv = c_attn.bias.defined() ? c_attn.bias.narrow(0, C, 2 * C) : Tensor();
  for (int l = 0; l < 2; ++l) {
    const Tensor src = norm_prev ? ctx.pre_norm->forward(before[l]) : before[l];
    s.kv[size_t(l)] = matmul(src, w_kv.t());  // [B, T, 2C]
    if (b_kv.defined()) s.kv[size_t(l)] = s.kv[size_t(l)] + b_kv;
  }
  return s;
}

SourceProjections project_sources(nn::Linear& c_attn, const Tensor& x,
                                  const nn::MixerContext& ctx, int64_t n_head, bool norm_prev,
                                  const std::string& who) {
  const PackedSources p = project_packed(c_attn, x, ctx, norm_prev, who);
  const int64_t C = x.size(-1);
  SourceProjections s;
  const auto [q, k, v] = split_qkv(p.qkv, n_head);
  s.q = q;
  s.k[2] = k;
  s.v[2] = v;
  for (size_t l = 0; l < 2; ++l) {
    s.k[l] = split_heads(p.kv[l].narrow(2, 0, C), n_head);
    s.v[l] = split_heads(p.kv[l].narrow(2, C, C), n_head);
  }
  return s;
}

EarlierLayersAttention::EarlierLayersAttention(const nn::MixerOptions& o, bool norm_prev_)
    : nn::CausalSelfAttention(o, OwnOptions{}), norm_prev(norm_prev_) {}

SourceProjections EarlierLayersAttention::sources(const Tensor& x, const nn::MixerContext& ctx) {
  return project_sources(*c_attn, x, ctx, n_head, norm_prev, "attention " + name());
}

PackedSources EarlierLayersAttention::packed_sources(const Tensor& x,
                                                     const nn::MixerContext& ctx) {
  return project_packed(*c_attn, x, ctx, norm_prev, "attention " + name());
}

Tensor EarlierLayersAttention::forward(const Tensor& x, const nn::MixerContext& ctx) {
  if (layer < 2) return CausalSelfAttention::forward(x, ctx);  // blocks 0, 1: classic
  auto [q, k, v] = project(x, ctx);
  return attend(q, k, v);
}

Tensor EarlierLayersAttention::step(nn::MixerState& state, const Tensor& x, const nn::MixerContext& ctx) {
  if (layer < 2) return CausalSelfAttention::step(state, x, ctx);
  auto [q, k, v] = project(x, ctx);
  return attend_cached(dynamic_cast<Cache&>(state), q, k, v);
}

}  // namespace attic::models::reflex
