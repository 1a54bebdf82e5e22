#include "models/linformer/config.h"

#include <algorithm>

#include "nn/attention/declared_options.h"
#include "tensor/error.h"

namespace attic::models::linformer {

Method parse_method(const std::string& text) {
  if (text == "learnable") return Method::Learnable;
  if (text == "convolution") return Method::Convolution;
  if (text == "no_params") return Method::NoParams;
  fail("linformer: method must be learnable, convolution or no_params, got '", text, "'");
}
Sharing parse_sharing(const std::string& text) {
  if (text == "none") return Sharing::None;
  if (text == "headwise") return Sharing::Headwise;
  if (text == "kv") return Sharing::KV;
  if (text == "layerwise") return Sharing::Layerwise;
  fail("linformer: parameter_sharing must be none, headwise, kv or layerwise, got '", text, "'");
}
Causal parse_causal(const std::string& text) {
  if (text == "none") return Causal::None;
  if (text == "leaky") return Causal::Leaky;
  if (text == "prefix") return Causal::Prefix;
  fail("linformer: causal must be none, leaky or prefix, got '", text, "'");
}
Checkpoint parse_checkpoint(const std::string& text) {
  if (text == "C0") return Checkpoint::C0;
  if (text == "C1") return Checkpoint::C1;
  if (text == "C2") return Checkpoint::C2;
  fail("linformer: checkpoint_level must be C0, C1 or C2, got '", text, "'");
}

std::string to_string(Method m) {
  return m == Method::Learnable ? "learnable" : m == Method::Convolution ? "convolution" : "no_params";
}
std::string to_string(Sharing s) {
  switch (s) {
    case Sharing::None: return "none";
    case Sharing::Headwise: return "headwise";
    case Sharing::KV: return "kv";
    case Sharing::Layerwise: return "layerwise";
  }
  return "?";
}
std::string to_string(Causal c) {
  return c == Causal::None ? "none" : c == Causal::Leaky ? "leaky" : "prefix";
}
std::string to_string(Checkpoint c) {
  return c == Checkpoint::C0 ? "C0" : c == Checkpoint::C1 ? "C1" : "C2";
}
std::string to_string(DecoderMask m) { return m == DecoderMask::Self ? "self" : "context"; }

void NamedArgs::bind(util::Options& o) {
  o.bind("k", k, "slots per head: keys and values are summarized into k rows");
  o.bind("sharing", sharing, "how E and F are shared: none, headwise, kv or layerwise");
  o.bind("method", method, "how the slots are made: learnable, convolution or no_params");
  o.bind("causal", causal, "prefix (slots of the past only), leaky (the package's) or none");
  o.bind("checkpoint", checkpoint, "recompute in backward: C0 (none), C1 or C2");
  o.bind("full_attention", full_attention, "n x n softmax attention in the same heads instead (the package's "
         "comparison)");
  o.bind("dim_d", dim_d, "each head's width (0: n_embd / n_head)").int_range(0, 1 << 20);
  o.bind("k_reduce_by_layer", k_reduce_by_layer, "layer l has max(1, k - l*r) slots (not with layerwise "
         "sharing)").int_range(0, 1 << 20);
  o.bind("w_o_intermediate_dim", w_o_intermediate_dim, "m > 0: the heads' output goes h*d -> m -> n_embd")
      .int_range(0, 1 << 20);
  o.bind("dropout", dropout, "on the attention weights and the heads' output (below 0: the config's "
         "dropout)").float_range(-1, 1, false, true);
  o.bind("dropout_ff", dropout_ff, "model=linformer: the feed-forward's dropouts (below 0: the config's "
         "dropout)").float_range(-1, 1, false, true);
  o.bind("dropout_tokens", dropout_tokens, "model=linformer: on embedding + positions (below 0: the config's "
         "dropout)").float_range(-1, 1, false, true);
  o.bind("activation", activation, "model=linformer: gelu or relu, in the feed-forward");
  o.bind("ff_intermediate", ff_intermediate, "model=linformer: m > 0 widens layer 0 to m and narrows the last "
         "back").int_range(0, 1 << 20);
  o.bind("emb_dim", emb_dim, "model=linformer: the embedding width (0: n_embd, else projected in and out)")
      .int_range(0, 1 << 20);
  o.bind("dim_ff", dim_ff, "model=linformer: the feed-forward's hidden width (0: 4 x n_embd)").int_range(0, 1 << 24);
}

NamedOptions read_named_options(const nn::AttentionArgs& args, const NamedOptions& d) {
  NamedArgs defaults;
  defaults.k = d.k;
  defaults.sharing = to_string(d.sharing);
  defaults.method = to_string(d.method);
  defaults.causal = to_string(d.causal);
  defaults.checkpoint = to_string(d.checkpoint);
  defaults.full_attention = d.full_attention;
  defaults.dim_d = d.dim_d;
  defaults.k_reduce_by_layer = d.k_reduce_by_layer;
  defaults.w_o_intermediate_dim = d.w_o_intermediate_dim;
  defaults.dropout = d.dropout;
  defaults.dropout_ff = d.dropout_ff;
  defaults.dropout_tokens = d.dropout_tokens;
  defaults.activation = d.activation;
  defaults.ff_intermediate = d.ff_intermediate;
  defaults.emb_dim = d.emb_dim;
  defaults.dim_ff = d.dim_ff;
  const NamedArgs a = nn::read_options(args, "linformer", defaults);
  NamedOptions o;
  o.k = a.k;
  o.sharing = parse_sharing(a.sharing);
  o.method = parse_method(a.method);
  o.causal = parse_causal(a.causal);
  o.checkpoint = parse_checkpoint(a.checkpoint);
  o.full_attention = a.full_attention;
  o.dim_d = a.dim_d;
  o.k_reduce_by_layer = a.k_reduce_by_layer;
  o.w_o_intermediate_dim = a.w_o_intermediate_dim;
  o.dropout = a.dropout;
  o.dropout_ff = a.dropout_ff;
  o.dropout_tokens = a.dropout_tokens;
  o.activation = a.activation;
  o.ff_intermediate = a.ff_intermediate;
  o.emb_dim = a.emb_dim;
  o.dim_ff = a.dim_ff;
  return o;
}

// The package's asserts, and what it leaves to a crash inside a forward: sizes positive,
// C divisible by h unless d is given, k ≤ n, the convolution's window ⌊n/k⌋ dividing n.
void LinformerOptions::validate(const std::string& who) const {
  ATTIC_CHECK(input_size > 0 && channels > 0 && dim_k > 0 && dim_ff > 0 && nhead > 0 &&
                  depth > 0 && dim_d >= 0 && k_reduce_by_layer >= 0 &&
                  w_o_intermediate_dim >= 0 && ff_intermediate >= 0,
              who, ": input_size, channels, dim_k, dim_ff, nhead and depth must be positive and "
              "dim_d, k_reduce_by_layer, w_o_intermediate_dim, ff_intermediate >= 0, got ",
              input_size, ", ", channels, ", ", dim_k, ", ", dim_ff, ", ", nhead, ", ", depth,
              " and ", dim_d, ", ", k_reduce_by_layer, ", ", w_o_intermediate_dim, ", ",
              ff_intermediate);
  ATTIC_CHECK(dim_d > 0 || channels % nhead == 0, who, ": channels ", channels,
              " is not divisible by nhead ", nhead, " (or give dim_d)");
  ATTIC_CHECK(full_attention || dim_k <= input_size, who, ": dim_k ", dim_k,
              " is larger than input_size ", input_size, "; k slots summarize n positions, k <= n");
  ATTIC_CHECK(dropout >= 0 && dropout < 1 && dropout_ff >= 0 && dropout_ff < 1, who,
              ": dropout and dropout_ff must be in [0, 1), got ", dropout, " and ", dropout_ff);
  ATTIC_CHECK(activation == "gelu" || activation == "relu", who,
              ": activation must be gelu or relu, got '", activation, "'");
  ATTIC_CHECK(!(ff_intermediate > 0 && parameter_sharing == Sharing::Layerwise), who,
              ": ff_intermediate needs parameter_sharing other than layerwise");
  ATTIC_CHECK(!(ff_intermediate > 0 && decoder_mode), who,
              ": ff_intermediate cannot be used in decoder_mode");
  if (method == Method::Convolution && !full_attention)
    for (int64_t l = 0; l < depth; ++l) {
      const int64_t k = k_at(l);
      ATTIC_CHECK(input_size % k == 0, who, ": the convolution method needs k to divide n, but "
                  "layer ", l, " has k ", k, " and n ", input_size, " (its output would have ",
                  input_size / (input_size / k), " slots, not k)");
    }
}

int64_t LinformerOptions::k_at(int64_t layer) const {
  if (parameter_sharing == Sharing::Layerwise) return dim_k;
  return std::max<int64_t>(1, dim_k - layer * k_reduce_by_layer);
}

int64_t LinformerOptions::channels_in(int64_t layer) const {
  return ff_intermediate > 0 && layer != 0 ? ff_intermediate : channels;
}
int64_t LinformerOptions::channels_out(int64_t layer) const {
  return ff_intermediate > 0 && layer != depth - 1 ? ff_intermediate : channels;
}

LinformerOptions LinformerLMOptions::lm_defaults() {
  LinformerOptions o;
  o.dim_k = 64;
  o.dim_ff = 1024;
  o.dropout_ff = 0.1;
  o.depth = 2;
  o.dropout = 0.05;
  return o;
}

void LinformerLMOptions::validate(const std::string& who) const {
  ATTIC_CHECK(num_tokens > 0 && emb_dim >= 0, who, ": num_tokens must be positive and emb_dim >= 0, got ",
              num_tokens, " and ", emb_dim);
  ATTIC_CHECK(width() % 2 == 0, who, ": the sinusoidal positions need an even embedding width, got ",
              width());
  ATTIC_CHECK(dropout_tokens >= 0 && dropout_tokens < 1, who,
              ": dropout_tokens must be in [0, 1), got ", dropout_tokens);
  body.validate(who);
}

}  // namespace attic::models::linformer

namespace attic::models::linformer {

LinformerLMOptions linformer_lm_options(const ModelSpec& s) {
  ATTIC_CHECK(s.attention == "softmax" || s.attention == "linformer", "model linformer has the "
              "Linformer's attention in every layer; attention = ", s.attention, " needs model gpt");
  ATTIC_CHECK(s.model_options.empty(), "model linformer takes no model options, got '", s.model_options, "'");
  const nn::AttentionArgs args = nn::AttentionArgs::parse(s.attention_options);
  NamedOptions defaults;  // the package's LinformerLM shares one P across the model
  defaults.k = std::min<int64_t>(64, s.block_size);
  defaults.sharing = Sharing::Layerwise;
  const NamedOptions named = read_named_options(args, defaults);
  auto or_config = [&](double given) { return given >= 0 ? given : s.dropout; };
  LinformerLMOptions o;
  o.num_tokens = s.vocab_size;
  o.dropout_tokens = or_config(named.dropout_tokens);
  o.emb_dim = named.emb_dim;
  LinformerOptions& b = o.body;
  b.input_size = s.block_size;
  b.channels = s.n_embd;
  b.nhead = s.n_head;
  b.depth = s.n_layer;
  b.dim_ff = named.dim_ff > 0 ? named.dim_ff : 4 * s.n_embd;
  b.dropout = or_config(named.dropout);
  b.dropout_ff = or_config(named.dropout_ff);
  b.dim_k = named.k;
  b.parameter_sharing = named.sharing;
  b.method = named.method;
  // causal = none is the package's LinformerLM without its mask: each position then reads the
  // tokens after it, so its loss is not a language model's (a way to see the leak).
  b.causal = named.causal;
  b.checkpoint_level = named.checkpoint;
  b.full_attention = named.full_attention;
  b.dim_d = named.dim_d;
  b.k_reduce_by_layer = named.k_reduce_by_layer;
  b.w_o_intermediate_dim = named.w_o_intermediate_dim;
  b.activation = named.activation;
  b.ff_intermediate = named.ff_intermediate;
  o.validate("model linformer");
  return o;
}

}  // namespace attic::models::linformer
