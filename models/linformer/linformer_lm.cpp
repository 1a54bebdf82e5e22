#include "models/linformer/linformer_lm.h"


namespace attic::models::linformer {

ProjectInOut::ProjectInOut(std::shared_ptr<Linformer> fn_, int64_t dim_in, int64_t dim_out) : fn(std::move(fn_)) {
  register_module("fn", fn);
  project_in = register_module("project_in", std::make_shared<nn::Linear>(dim_in, dim_out));
  project_out = register_module("project_out", std::make_shared<nn::Linear>(dim_out, dim_in));
}

Tensor ProjectInOut::forward(const Tensor& x, const LayerArgs& args) {
  return project_out->forward(fn->forward(project_in->forward(x), args));
}

LinformerLM::LinformerLM(const LinformerLMOptions& o) : options(o) {
  o.validate("LinformerLM");
  const int64_t E = o.width();
  to_token_emb = register_module("to_token_emb", std::make_shared<nn::Embedding>(o.num_tokens, E));
  pos_emb = register_module("pos_emb", std::make_shared<PositionalEmbedding>(E));
  auto body = std::make_shared<Linformer>(o.body);
  if (E == o.body.channels) {
    linformer = register_module("linformer", body);
  } else {
    projected = register_module("linformer", std::make_shared<ProjectInOut>(body, E, o.body.channels));
  }
  if (!o.return_emb) to_logits = register_module("to_logits", std::make_shared<nn::Linear>(E, o.num_tokens));
  dropout_tokens = register_module("dropout_tokens", std::make_shared<nn::Dropout>(o.dropout_tokens));
}

Tensor LinformerLM::forward(const Tensor& idx, const LayerArgs& args) {
  const int64_t n = options.body.input_size;
  ATTIC_CHECK(idx.dim() == 2 && idx.size(1) == n && idx.dtype() == DType::Int64,
              "LinformerLM: expected int64 ids [B, ", n, "] (input_size positions exactly; Padder pads a "
              "shorter input), got ", idx.defined() ? str(idx.shape()) : std::string("none"));
  Tensor x = to_token_emb->forward(idx);  // [B, n, E]
  x = dropout_tokens->forward(x + pos_emb->forward(n));
  x = linformer ? linformer->forward(x, args) : projected->forward(x, args);
  return to_logits ? to_logits->forward(x) : x;
}

Tensor LinformerLM::loss(const Tensor& idx, const Tensor& targets) {
  Tensor logits = forward(idx);
  const int64_t V = logits.size(-1);
  return cross_entropy(logits.reshape({-1, V}), targets.reshape({-1}), -1);
}

Tensor LinformerLM::last_logits(const Tensor& ctx) {
  const int64_t n = options.body.input_size, B = ctx.size(0), T = ctx.size(1);
  Tensor padded = T == n ? ctx : cat({ctx, zeros({B, n - T}, TensorOptions(DType::Int64).device(ctx.device()))}, 1);
  return forward(padded).narrow(1, T - 1, 1);
}

Tensor LinformerLM::generate(const Tensor& idx, int64_t max_new_tokens, double temperature, int64_t top_k,
                             Generator* gen, bool use_cache) {
  ATTIC_CHECK(to_logits != nullptr, "LinformerLM: generate needs the output head (built with return_emb)");
  return generate_incremental(*this, idx, max_new_tokens, options.body.input_size, options.num_tokens, temperature,
                              top_k, gen ? *gen : default_generator(), use_cache,
                              [this](const Tensor& ctx) { return last_logits(ctx); });
}

std::optional<LinformerLM::DecodeState> LinformerLM::start_decoding() const {
  if (options.body.decoder_mode) return std::nullopt;
  std::vector<const nn::CausalMixer*> mixers;
  for (const auto& a : stack().attentions()) mixers.push_back(a.get());
  return models::start_decoding(mixers);
}

// The stack, position by position: every sublayer but attention acts on each token alone,
// so only the attentions need their state.
Tensor LinformerLM::step(DecodeState& state, const Tensor& idx) {
  const int64_t t = idx.size(1);
  ATTIC_CHECK(idx.dim() == 2 && state.length + t <= options.body.input_size, "LinformerLM::step: ",
              state.length, " tokens seen and ", t, " more exceed input_size ", options.body.input_size);
  Tensor x = dropout_tokens->forward(to_token_emb->forward(idx) + pos_emb->forward(t, state.length));
  if (projected) x = projected->project_in->forward(x);
  size_t a = 0;
  for (const auto& m : *stack().seq) {
    auto r = std::dynamic_pointer_cast<Residual>(m);
    if (auto attn = std::dynamic_pointer_cast<LinformerAttention>(r->fn)) {
      x = r->norm->forward(x + attn->step(*state.layers[a++], x, {}));
    } else {
      x = r->forward(x);
    }
  }
  if (projected) x = projected->project_out->forward(x);
  state.length += t;
  return to_logits->forward(x.narrow(1, t - 1, 1));
}

}  // namespace attic::models::linformer
