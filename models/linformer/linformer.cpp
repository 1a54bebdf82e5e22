#include "models/linformer/linformer.h"

#include <algorithm>

#include "autograd/checkpoint.h"

namespace attic::models::linformer {

namespace {

std::shared_ptr<Residual> wrap_attention(std::shared_ptr<LinformerAttention> a, int64_t channels) {
  return std::make_shared<Residual>(
      a, [a](const Tensor& x, const LayerArgs& args) { return a->forward(x, args); }, channels, channels);
}

std::shared_ptr<Residual> wrap_ff(std::shared_ptr<FeedForward> f, int64_t in, int64_t out) {
  return std::make_shared<Residual>(
      f, [f](const Tensor& x, const LayerArgs&) { return f->forward(x); }, in, out);
}

}  // namespace

Linformer::Linformer(const LinformerOptions& o) : options(o) {
  o.validate("Linformer");
  const int64_t d = o.head_dim();
  // The package builds this P whatever the sharing; only layerwise sharing uses it, and only
  // then is it a parameter of the model (through the heads that hold it).
  if (o.parameter_sharing == Sharing::Layerwise)
    shared = std::make_shared<Projection>(o.input_size, o.dim_k, o.method, d, o.no_params_code_std);
  auto attention = [&](int64_t channels, int64_t k, Causal causal, bool decoder) {
    LinformerAttentionOptions a;
    a.input_size = o.input_size;
    a.dim = d;
    a.channels = channels;
    a.dim_k = k;
    a.nhead = o.nhead;
    a.dropout = o.dropout;
    a.checkpoint_level = o.checkpoint_level;
    a.parameter_sharing = o.parameter_sharing;
    a.full_attention = o.full_attention;
    a.causal = causal;
    a.w_o_intermediate_dim = o.w_o_intermediate_dim;
    a.decoder_mode = decoder;
    a.method = o.method;
    a.no_params_code_std = o.no_params_code_std;
    return std::make_shared<LinformerAttention>(a, shared);
  };
  // The causal mask goes on the self-attention, except in decoder mode with
  // decoder_mask = context, where the package's code puts it on the cross-attention
  // (its README says the decoder is causal).
  const bool mask_context = o.decoder_mode && o.decoder_mask == DecoderMask::Context;
  const Causal self_causal = mask_context ? Causal::None : o.causal;
  const Causal context_causal = mask_context ? o.causal : Causal::None;

  seq = register_module("seq", std::make_shared<nn::ModuleList>());
  for (int64_t l = 0; l < o.depth; ++l) {
    const int64_t in = o.channels_in(l), out = o.channels_out(l), k = o.k_at(l);
    seq->push_back(wrap_attention(attention(in, k, self_causal, false), in));
    if (o.include_ff)
      seq->push_back(wrap_ff(std::make_shared<FeedForward>(in, out, o.dim_ff, o.dropout_ff, o.activation), in, out));
    if (!o.decoder_mode) continue;
    seq->push_back(wrap_attention(attention(o.channels, k, context_causal, true), o.channels));
    if (o.include_ff)
      seq->push_back(wrap_ff(std::make_shared<FeedForward>(o.channels, o.channels, o.dim_ff, o.dropout_ff, o.activation),
                             o.channels, o.channels));
  }
}

Tensor Linformer::forward(const Tensor& x, const LayerArgs& args) {
  const LinformerOptions& o = options;
  ATTIC_CHECK(x.dim() == 3 && x.size(1) == o.input_size && x.size(2) == o.channels,
              "Linformer: expected x [B, ", o.input_size, ", ", o.channels, "] (input_size positions exactly; "
              "Padder pads a shorter input), got ", str(x.shape()));
  ATTIC_CHECK(!args.embeddings.defined() || o.decoder_mode,
              "Linformer: embeddings given, but the model was not built with decoder_mode");
  Tensor h = x;
  for (const auto& m : *seq) {
    auto layer = std::dynamic_pointer_cast<Residual>(m);
    if (o.checkpoint_level == Checkpoint::C0) {
      h = layer->forward(h, args);
    } else {
      // Only the layer's input and the encoder's output are kept; the masks ride along in
      // args. The embeddings must be an input: read from args, the recomputation's backward
      // would run on into the encoder's graph, which the outer backward still has to walk.
      h = autograd::checkpoint(
          [layer, args](const std::vector<Tensor>& in) {
            LayerArgs a = args;
            a.embeddings = in[1];
            return layer->forward(in[0], a);
          },
          {h, args.embeddings});
    }
  }
  return h;
}

std::vector<std::shared_ptr<LinformerAttention>> Linformer::attentions() const {
  std::vector<std::shared_ptr<LinformerAttention>> out;
  for (const auto& m : *seq)
    if (auto a = std::dynamic_pointer_cast<LinformerAttention>(std::dynamic_pointer_cast<Residual>(m)->fn)) out.push_back(a);
  return out;
}

int64_t Linformer::distinct_projections() const {
  std::vector<const Projection*> all;
  for (const auto& a : attentions())
    for (const Projection* p : a->projections())
      if (std::find(all.begin(), all.end(), p) == all.end()) all.push_back(p);
  return int64_t(all.size());
}

}  // namespace attic::models::linformer
