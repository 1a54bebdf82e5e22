#include "models/linformer/linformer_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "autograd/checkpoint.h"
#include "models/linformer/prefix_attention.h"

namespace attic::models::linformer {

LinformerAttention::LinformerAttention(const LinformerAttentionOptions& o, std::shared_ptr<Projection> shared)
    : options(o) {
  build(std::move(shared));
}

namespace {

LinformerAttentionOptions from_mixer(const nn::MixerOptions& m) {
  m.validate("linformer attention");
  LinformerAttentionOptions o;
  o.input_size = m.block_size;
  o.channels = m.n_embd;
  o.nhead = m.n_head;
  NamedOptions defaults;
  defaults.k = std::min<int64_t>(64, m.block_size);
  const NamedOptions named = read_named_options(m.args, defaults);
  const NamedOptions lm_only;  // model=linformer's own options, at their defaults
  ATTIC_CHECK(named.dropout_ff == lm_only.dropout_ff && named.dropout_tokens == lm_only.dropout_tokens &&
                  named.activation == lm_only.activation && named.ff_intermediate == lm_only.ff_intermediate &&
                  named.emb_dim == lm_only.emb_dim && named.dim_ff == lm_only.dim_ff,
              "linformer attention: dropout_ff, dropout_tokens, activation, ff_intermediate, emb_dim and dim_ff are "
              "model=linformer's; the GPT's attention=linformer has the GPT's MLP and embeddings");
  o.dim = named.dim_d > 0 ? named.dim_d : m.n_embd / m.n_head;
  o.dim_k = std::max<int64_t>(1, named.k - m.layer * named.k_reduce_by_layer);
  o.parameter_sharing = named.sharing;
  o.method = named.method;
  o.causal = named.causal;
  o.checkpoint_level = named.checkpoint;
  o.full_attention = named.full_attention;
  o.w_o_intermediate_dim = named.w_o_intermediate_dim;
  o.dropout = named.dropout >= 0 ? named.dropout : m.dropout;
  ATTIC_CHECK(o.causal != Causal::None, "linformer attention: the GPT needs causal=prefix or causal=leaky, got none");
  ATTIC_CHECK(o.parameter_sharing != Sharing::Layerwise, "linformer attention: layerwise sharing spans the "
              "whole stack; use model=linformer for it, or sharing=none, headwise or kv in the GPT");
  ATTIC_CHECK(o.checkpoint_level != Checkpoint::C1, "linformer attention: checkpoint must be C0 or C2 inside "
              "the GPT (C1 checkpoints the layers of model=linformer)");
  return o;
}

}  // namespace

LinformerAttention::LinformerAttention(const nn::MixerOptions& m) : options(from_mixer(m)) { build(nullptr); }

void LinformerAttention::build(std::shared_ptr<Projection> shared) {
  const LinformerAttentionOptions& o = options;
  ATTIC_CHECK(o.input_size > 0 && o.dim > 0 && o.channels > 0 && o.dim_k > 0 && o.nhead > 0,
              "LinformerAttention: input_size, dim, channels, dim_k and nhead must be positive, got ", o.input_size,
              ", ", o.dim, ", ", o.channels, ", ", o.dim_k, ", ", o.nhead);
  ATTIC_CHECK(o.full_attention || o.dim_k <= o.input_size, "LinformerAttention: dim_k ", o.dim_k,
              " is larger than input_size ", o.input_size);
  auto make = [&] {
    return std::make_shared<Projection>(o.input_size, o.dim_k, o.method, o.dim, o.no_params_code_std);
  };
  std::shared_ptr<Projection> E, F;
  if (o.parameter_sharing == Sharing::Layerwise) {
    ATTIC_CHECK(shared != nullptr, "LinformerAttention: layerwise sharing needs the model's shared projection");
    E = F = shared;
  } else if (o.parameter_sharing != Sharing::None) {
    E = make();
    F = o.parameter_sharing == Sharing::Headwise ? make() : E;
  }
  heads = register_module("heads", std::make_shared<nn::ModuleList>());
  to_q = register_module("to_q", std::make_shared<nn::ModuleList>());
  to_k = register_module("to_k", std::make_shared<nn::ModuleList>());
  to_v = register_module("to_v", std::make_shared<nn::ModuleList>());
  for (int64_t h = 0; h < o.nhead; ++h) {
    if (o.parameter_sharing == Sharing::None) {
      E = make();
      F = make();
    }
    heads->push_back(std::make_shared<LinearAttentionHead>(o.dim, o.dropout, E, F, o.causal, o.full_attention));
    to_q->push_back(std::make_shared<nn::Linear>(o.channels, o.dim, false));
    to_k->push_back(std::make_shared<nn::Linear>(o.channels, o.dim, false));
    to_v->push_back(std::make_shared<nn::Linear>(o.channels, o.dim, false));
  }
  if (o.w_o_intermediate_dim > 0) {
    w_o_1 = register_module("w_o_1", std::make_shared<nn::Linear>(o.dim * o.nhead, o.w_o_intermediate_dim));
    w_o_2 = register_module("w_o_2", std::make_shared<nn::Linear>(o.w_o_intermediate_dim, o.channels));
  } else {
    w_o = register_module("w_o", std::make_shared<nn::Linear>(o.dim * o.nhead, o.channels));
  }
  mh_dropout = register_module("mh_dropout", std::make_shared<nn::Dropout>(o.dropout));
}

Tensor LinformerAttention::forward(const Tensor& x, const LayerArgs& args) {
  const LinformerAttentionOptions& o = options;
  ATTIC_CHECK(x.dim() == 3 && x.size(2) == o.channels && x.size(1) >= 1 && x.size(1) <= o.input_size,
              "LinformerAttention: expected x [B, m, ", o.channels, "] with 1 <= m <= ", o.input_size, ", got ",
              str(x.shape()));
  LayerArgs head_args = args;
  head_args.visualize = args.visualize || visualize;
  const Tensor& context = o.decoder_mode ? args.embeddings : x;
  ATTIC_CHECK(!o.decoder_mode || (context.defined() && context.shape() == x.shape()),
              "LinformerAttention: decoder mode needs embeddings of x's shape ", str(x.shape()), ", got ",
              context.defined() ? str(context.shape()) : std::string("none"));
  if (can_batch_heads(head_args)) return all_heads(x, context);
  std::vector<Tensor> outs;
  for (int64_t h = 0; h < o.nhead; ++h) {
    auto head = heads->at<LinearAttentionHead>(size_t(h));
    Tensor Q = to_q->at<nn::Linear>(size_t(h))->forward(x);
    Tensor K = to_k->at<nn::Linear>(size_t(h))->forward(context);
    Tensor V = to_v->at<nn::Linear>(size_t(h))->forward(context);
    if (o.checkpoint_level == Checkpoint::C2) {
      // The head's P̄ [B, m, k] and its softmax are recomputed in backward; only Q, K, V stay.
      outs.push_back(autograd::checkpoint(
          [head, head_args](const std::vector<Tensor>& in) { return head->forward(in[0], in[1], in[2], head_args); },
          {Q, K, V}));
    } else {
      outs.push_back(head->forward(Q, K, V, head_args));
    }
  }
  Tensor y = cat(outs, -1);  // [B, m, h·d]
  y = w_o ? w_o->forward(y) : w_o_2->forward(w_o_1->forward(y));
  return mh_dropout->forward(y);
}

// Whether all_heads computes this call: the heads share E and F (headwise, kv or layerwise
// sharing), which compress positions only (learnable or no_params), and the call needs
// nothing a head does on its own: masks, P̄ kept for plots, the prefix scan, dropout on P̄,
// or a checkpoint per head.
bool LinformerAttention::can_batch_heads(const LayerArgs& args) const {
  const LinformerAttentionOptions& o = options;
  if (!o.batch_heads || o.parameter_sharing == Sharing::None || o.full_attention ||
      o.method == Method::Convolution || o.checkpoint_level == Checkpoint::C2 ||
      o.causal == Causal::Prefix || args.visualize || args.input_mask.defined() ||
      args.embeddings_mask.defined() || (o.dropout > 0 && is_training()))
    return false;
  const auto first = heads->at<LinearAttentionHead>(0);
  for (const auto& m : *heads) {
    const auto head = std::dynamic_pointer_cast<LinearAttentionHead>(m);
    if (head->E != first->E || head->F != first->F) return false;
  }
  return true;
}

// x, context [B, m, C] -> [B, m, C]: the loop over heads in forward, with the h heads side
// by side, for heads that share E and F:
//   [Q_1 .. Q_h] = x [W_q1; ..; W_qh]ᵀ  [B, m, h·d], and K, V the same from context;
//   [K̄_1 .. K̄_h] = E [K_1 .. K_h] + b_E  [B, k, h·d]  (E [k, m] acts on positions only);
//   y_i = softmax(Q_i K̄_iᵀ / √d) V̄_i, one attention call over h heads.
// Each product reads x, E and F once instead of once per head, and writes one gradient where
// the loop writes h and sums them (one layer, C 64, 4 heads, n 32K: E alone is 16 MiB).
Tensor LinformerAttention::all_heads(const Tensor& x, const Tensor& context) {
  const LinformerAttentionOptions& o = options;
  const int64_t m = x.size(1);
  auto stacked = [&](nn::ModuleList& linears) {  // [h·d, C]
    std::vector<Tensor> w;
    for (const auto& l : linears) w.push_back(std::dynamic_pointer_cast<nn::Linear>(l)->weight);
    return cat(w, 0);
  };
  const auto head = heads->at<LinearAttentionHead>(0);
  auto compress = [&](const Projection& P, const Tensor& t) {  // [B, m, h·d] -> [B, k, h·d]
    const Tensor b = P.bias_rows();
    const Tensor y = matmul(P.matrix(m), t);
    return b.defined() ? y + b : y;
  };
  const Tensor Q = matmul(x, stacked(*to_q).t());
  const Tensor K = matmul(context, stacked(*to_k).t());
  const Tensor V = matmul(context, stacked(*to_v).t());
  SdpaOptions so;
  so.is_causal = o.causal != Causal::None;
  so.scale = 1.0 / std::sqrt(double(o.dim));
  const Tensor y = scaled_dot_product_attention(split_heads(Q, o.nhead),
                                                split_heads(compress(*head->E, K), o.nhead),
                                                split_heads(compress(*head->F, V), o.nhead), so);
  Tensor out = merge_heads(y);  // [B, m, h·d], the heads as cat puts them
  out = w_o ? w_o->forward(out) : w_o_2->forward(w_o_1->forward(out));
  return mh_dropout->forward(out);
}

Tensor LinformerAttention::forward(const Tensor& x, const nn::MixerContext&) { return forward(x, LayerArgs{}); }

std::unique_ptr<nn::MixerState> LinformerAttention::start_decoding() const {
  if (options.causal != Causal::Prefix || options.full_attention || options.decoder_mode) return nullptr;
  return std::make_unique<State>();
}

// Per head and token at position p: K̄ += E[:, p] ⊗ k̃_p, V̄ += F[:, p] ⊗ ṽ_p, then
// y_p = softmax_{s≤p}(q_p · (K̄ + bE)[s] / √d) (V̄ + bF): prefix_attention's row p.
Tensor LinformerAttention::step(nn::MixerState& base, const Tensor& x, const nn::MixerContext&) {
  auto* state = dynamic_cast<State*>(&base);
  ATTIC_CHECK(state != nullptr, "linformer step: the state was not made by this attention's start_decoding");
  const LinformerAttentionOptions& o = options;
  const int64_t B = x.size(0), t = x.size(1);
  ATTIC_CHECK(x.dim() == 3 && x.size(2) == o.channels && state->length + t <= o.input_size,
              "linformer step: expected x [B, t, ", o.channels, "] with ", state->length,
              " + t <= input_size ", o.input_size, ", got ", str(x.shape()));
  const TensorOptions opt = TensorOptions(x.dtype()).device(x.device());
  const double scale = 1.0 / std::sqrt(double(o.dim));
  if (state->SK.empty())
    for (int64_t h = 0; h < o.nhead; ++h) {
      state->SK.push_back(zeros({B, o.dim_k, o.dim}, opt));
      state->SV.push_back(zeros({B, o.dim_k, o.dim}, opt));
    }
  std::vector<Tensor> outs;
  for (int64_t h = 0; h < o.nhead; ++h) {
    auto head = heads->at<LinearAttentionHead>(size_t(h));
    Tensor q = to_q->at<nn::Linear>(size_t(h))->forward(x);
    Tensor k = head->E->keyed(to_k->at<nn::Linear>(size_t(h))->forward(x), state->length);
    Tensor v = head->F->keyed(to_v->at<nn::Linear>(size_t(h))->forward(x), state->length);
    const Tensor bE = head->E->bias_rows(), bF = head->F->bias_rows();
    std::vector<Tensor> rows;
    for (int64_t r = 0; r < t; ++r) {
      const int64_t p = state->length + r;
      Tensor& SK = state->SK[size_t(h)];
      Tensor& SV = state->SV[size_t(h)];
      SK = SK + head->E->column(p).view({1, o.dim_k, 1}) * k.narrow(1, r, 1);  // [B, k, d]
      SV = SV + head->F->column(p).view({1, o.dim_k, 1}) * v.narrow(1, r, 1);
      Tensor Kbar = bE.defined() ? SK + bE : SK, Vbar = bF.defined() ? SV + bF : SV;
      Tensor s = matmul(q.narrow(1, r, 1), Kbar.transpose(-1, -2)) * scale;  // [B, 1, k]
      if (p + 1 < o.dim_k)
        s = masked_fill(s, after_position(1, o.dim_k, p, opt), -std::numeric_limits<double>::infinity());
      rows.push_back(matmul(softmax(s, -1), Vbar));  // [B, 1, d]
    }
    outs.push_back(cat(rows, 1));
  }
  state->length += t;
  Tensor y = cat(outs, -1);
  y = w_o ? w_o->forward(y) : w_o_2->forward(w_o_1->forward(y));
  return mh_dropout->forward(y);
}

std::vector<const Projection*> LinformerAttention::projections() const {
  std::vector<const Projection*> out;
  for (const auto& m : *heads) {
    auto head = std::dynamic_pointer_cast<LinearAttentionHead>(m);
    for (const Projection* p : {head->E.get(), head->F.get()})
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

}  // namespace attic::models::linformer
