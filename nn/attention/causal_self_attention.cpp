#include "nn/attention/causal_self_attention.h"

#include "nn/attention/declared_options.h"

namespace attic::nn {

CausalSelfAttention::CausalSelfAttention(const MixerOptions& o)
    : CausalSelfAttention(o, OwnOptions{}) {
  (void)read_options<NoOptions>(o.args, name());
}

CausalSelfAttention::CausalSelfAttention(const MixerOptions& o, OwnOptions)
    : n_head(o.n_head), n_embd(o.n_embd), layer(o.layer) {
  o.validate("CausalSelfAttention");
  c_attn = register_module("c_attn", std::make_shared<Linear>(o.n_embd, 3 * o.n_embd, o.bias));
  c_proj = register_module("c_proj", std::make_shared<Linear>(o.n_embd, o.n_embd, o.bias));
  attn_dropout = register_module("attn_dropout", std::make_shared<Dropout>(o.dropout));
  resid_dropout = register_module("resid_dropout", std::make_shared<Dropout>(o.dropout));
}

// x [B, T, C] -> [B, T, C]:
//   y = softmax(q kᵀ / √hs, key t' > t dropped) v per head, heads side by side, then c_proj
Tensor CausalSelfAttention::forward(const Tensor& x, const MixerContext&) {
  return attend_packed(c_attn->forward(x));  // [B, T, 3C]: q, k, v side by side
}

// qkv [B, T, 3C] -> [B, T, C]. One call for every head. With no attention dropout in play it
// is the fused kernel, reading q, k, v out of qkv in place; otherwise the same math in
// separate ops, with dropout on the weights (karpathy/nanoGPT, model.py, both branches of
// `flash`).
Tensor CausalSelfAttention::attend_packed(const Tensor& qkv) {
  const double p = is_training() ? attn_dropout->p : 0.0;
  Tensor y = scaled_dot_product_attention_packed(
      qkv, n_head, {.is_causal = true, .dropout_p = p, .generator = attn_dropout->gen, .fused = fused});
  return resid_dropout->forward(c_proj->forward(y));  // y [B, T, C]
}

std::unique_ptr<MixerState> CausalSelfAttention::start_decoding() const {
  return std::make_unique<Cache>();
}

// x [B, t, C], cache of L tokens -> [B, t, C].
Tensor CausalSelfAttention::step(MixerState& state, const Tensor& x, const MixerContext&) {
  const auto [q, k, v] = split_qkv(c_attn->forward(x), n_head);  // [B, t, 3C] -> [B, NH, t, hs]
  return attend_cached(dynamic_cast<Cache&>(state), q, k, v);
}

// q, k, v [B, NH, T, hs] -> [B, T, C]: softmax(q kᵀ / √hs, key t' > t dropped) v, dropout on
// the weights while training, then c_proj and resid_dropout.
Tensor CausalSelfAttention::attend(const Tensor& q, const Tensor& k, const Tensor& v) {
  const double p = is_training() ? attn_dropout->p : 0.0;
  Tensor y = scaled_dot_product_attention(
      q, k, v, {.is_causal = true, .dropout_p = p, .generator = attn_dropout->gen, .fused = fused});
  return resid_dropout->forward(c_proj->forward(merge_heads(y)));
}

// q, k, v [B, NH, t, hs], cache of L tokens -> [B, t, C]. New query i (position L + i) sees
// keys 0 .. L + i: with an empty cache that is the causal triangle; with one new token it is
// every key; in between, a bool mask with the triangle shifted right by L.
Tensor CausalSelfAttention::attend_cached(Cache& cache, const Tensor& q, const Tensor& k,
                                          const Tensor& v) {
  const int64_t t = q.size(2), L = cache.length;
  cache.k = L == 0 ? k.contiguous() : cat({cache.k, k}, 2);            // [B, NH, L + t, hs]
  cache.v = L == 0 ? v.contiguous() : cat({cache.v, v}, 2);
  cache.length = L + t;
  SdpaOptions opt{.is_causal = L == 0 && t > 1};
  if (L > 0 && t > 1)
    opt.attn_mask = tril(ones({t, L + t}, TensorOptions(kBool).device(q.device())), L);
  Tensor y = merge_heads(scaled_dot_product_attention(q, cache.k, cache.v, opt));  // [B, t, C]
  return resid_dropout->forward(c_proj->forward(y));
}

}  // namespace attic::nn
