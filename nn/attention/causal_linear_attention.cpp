#include "nn/attention/causal_linear_attention.h"

#include "nn/attention/declared_options.h"

namespace attic::nn {

CausalLinearAttention::CausalLinearAttention(const MixerOptions& o, FeatureMap fm)
    : n_head(o.n_head), n_embd(o.n_embd), feature_map(fm) {
  o.validate("CausalLinearAttention");
  c_attn = register_module("c_attn", std::make_shared<Linear>(o.n_embd, 3 * o.n_embd, o.bias));
  c_proj = register_module("c_proj", std::make_shared<Linear>(o.n_embd, o.n_embd, o.bias));
  // There are no attention weights to drop: only the output, as nanoGPT's resid_dropout.
  resid_dropout = register_module("resid_dropout", std::make_shared<Dropout>(o.dropout));
  (void)read_options<NoOptions>(o.args, name());
}

std::string CausalLinearAttention::name() const {
  return feature_map == FeatureMap::EluPlusOne ? "linear_elu" : "linear_exp";
}

// x [B, T, C] -> [B, T, C]
Tensor CausalLinearAttention::forward(const Tensor& x, const MixerContext&) {
  Tensor qkv = c_attn->forward(x);  // [B, T, 3C]: q, k, v side by side
  Tensor y = linear_attention(qkv.narrow(2, 0, n_embd), qkv.narrow(2, n_embd, n_embd),
                              qkv.narrow(2, 2 * n_embd, n_embd), n_head, feature_map,
                              /*causal=*/true);
  return resid_dropout->forward(c_proj->forward(y));
}

std::unique_ptr<MixerState> CausalLinearAttention::start_decoding() const {
  return std::make_unique<State>();
}

// x [B, t, C] -> [B, t, C]
Tensor CausalLinearAttention::step(MixerState& state, const Tensor& x, const MixerContext&) {
  auto& st = dynamic_cast<State&>(state);
  Tensor qkv = c_attn->forward(x);  // [B, t, 3C]
  std::vector<Tensor> ys;
  for (int64_t i = 0; i < x.size(1); ++i) {
    Tensor row = qkv.narrow(1, i, 1);  // [B, 1, 3C]
    ys.push_back(linear_attention_step(st.rnn, row.narrow(2, 0, n_embd),
                                       row.narrow(2, n_embd, n_embd),
                                       row.narrow(2, 2 * n_embd, n_embd), n_head, feature_map));
  }
  st.length += x.size(1);
  Tensor y = ys.size() == 1 ? ys[0] : cat(ys, 1);  // [B, t, C]
  return resid_dropout->forward(c_proj->forward(y));
}

}  // namespace attic::nn
