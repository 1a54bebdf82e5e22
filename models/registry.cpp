#include "models/registry.h"

#include "models/elita/attention2.h"
#include "models/elita/elita_lm.h"
#include "models/gpt/gpt.h"
#include "models/linformer/linformer_attention.h"
#include "models/linformer/linformer_lm.h"
#include "models/reflex/reflex_attention.h"
#include "models/reflex/route_attention.h"
#include "models/transformer/pooled_lm.h"
#include "nn/attention/causal_linear_attention.h"
#include "nn/attention/causal_self_attention.h"
#include "nn/attention/linear_attention.h"
#include "nn/attention/multi_head_attention.h"
#include "tensor/error.h"
#include "util/quote_value.h"

namespace attic::models {

namespace {

// "a, b, c or d": the entries' names, in order, as messages write them.
template <class Entry>
std::string joined_names(const std::vector<Entry>& all) {
  std::string out;
  for (size_t i = 0; i < all.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i].name;
  return out;
}

template <class M>
std::shared_ptr<CausalMixer> mixer(const MixerOptions& o) {
  return std::make_shared<M>(o);
}
template <nn::FeatureMap F>
std::shared_ptr<CausalMixer> linear_mixer(const MixerOptions& o) {
  return std::make_shared<nn::CausalLinearAttention>(o, F);
}
template <nn::FeatureMap F>
std::shared_ptr<Attention> linear_qkv(const AttentionOptions& o) {
  return std::make_shared<nn::LinearAttention>(o, F);
}

// The list itself: the built-in attentions, then those register_attention() added.
std::vector<AttentionEntry>& entries() {
  const nn::OptionsDecl none = nn::declare_options<nn::NoOptions>();
  static std::vector<AttentionEntry> all = {
      {"softmax", "softmax(q kᵀ/√hs) v, causal (Vaswani et al. 2017; karpathy/nanoGPT)", none,
       mixer<nn::CausalSelfAttention>, nn::make_softmax_attention},
      {"linear_elu", "φ(q)ᵀ Σ φ(k) vᵀ / φ(q)ᵀ Σ φ(k), φ = elu + 1 (Katharopoulos et al. 2020)", none,
       linear_mixer<nn::FeatureMap::EluPlusOne>, linear_qkv<nn::FeatureMap::EluPlusOne>},
      {"linear_exp", "the same with φ = exp (Shen et al. 2021)", none,
       linear_mixer<nn::FeatureMap::Exp>, linear_qkv<nn::FeatureMap::Exp>},
      {"elita",
       "softmax over {d_i} ∪ {r_i + s_j : j ≤ i} as prefix sums (acosharma/elita-transformer)",
       nn::declare_options<elita::Attention2Args>(), mixer<elita::Attention2>, nullptr},
      {"linformer",
       "softmax over k slots, each a learned sum of keys; causal=prefix builds them from the "
       "past only (Wang et al. 2020; tatp22/linformer-pytorch)",
       nn::declare_options<linformer::NamedArgs>(), mixer<linformer::LinformerAttention>, nullptr},
      // Vadimbuildercxx/reflex_attention's three attention types. classic is its name for
      // nanoGPT's attention: the same class as softmax, so the same parameters and logits.
      {"classic", "softmax under the reflex_attention fork's name: nanoGPT's attention, unchanged",
       none, mixer<nn::CausalSelfAttention>, nullptr},
      {"reflex",
       "heads 0-1 attend to ln_1(x_i), 2-3 to x_{i-1}, the rest to x_{i-2}, from block 2 on "
       "(Vadimbuildercxx/reflex_attention)",
       nn::declare_options<reflex::ReflexOptions>(), mixer<reflex::ReflexAttention>, nullptr},
      {"route",
       "each head's keys and values a learned sum over x_{i-2}, x_{i-1}, ln_1(x_i), from block 2 "
       "on (Vadimbuildercxx/reflex_attention)",
       nn::declare_options<reflex::RouteOptions>(), mixer<reflex::RouteAttention>, nullptr},
  };
  return all;
}

}  // namespace

const std::vector<AttentionEntry>& attention_registry() { return entries(); }

void register_attention(AttentionEntry entry) {
  ATTIC_CHECK(!entry.name.empty() && bool(entry.make_mixer),
              "register_attention: an entry needs a name and a make_mixer");
  for (const AttentionEntry& e : entries())
    ATTIC_CHECK(e.name != entry.name, "register_attention: '", entry.name, "' is registered already");
  entries().push_back(std::move(entry));
}

std::string attention_names() { return joined_names(attention_registry()); }

std::string attention_options_usage() {
  std::string out;
  for (const AttentionEntry& e : attention_registry()) {
    const std::string lines = e.options.usage();
    if (!lines.empty()) out += "attention_options of " + e.name + ":\n" + lines;
  }
  return out;
}

const AttentionEntry& find_attention(const std::string& name) {
  for (const AttentionEntry& e : attention_registry())
    if (e.name == name) return e;
  fail("attention must be ", attention_names(), ", got '", name, "'");
}

std::shared_ptr<CausalMixer> make_causal_mixer(const std::string& name, const MixerOptions& options) {
  return find_attention(name).make_mixer(options);
}

std::shared_ptr<Attention> make_attention(const std::string& name, const AttentionOptions& options) {
  return attention_factory(name)(options);
}

nn::AttentionFactory attention_factory(const std::string& name) {
  const AttentionEntry& e = find_attention(name);
  ATTIC_CHECK(bool(e.make_attention), "attention ", name,
              " is a GPT attention only: it has no q, k, v form for the Transformer blocks");
  return e.make_attention;
}

namespace {

// A model entry's check and make from its config function, which validates what it builds.
template <auto config>
void check_with(const ModelSpec& spec) {
  (void)config(spec);
}
template <class Model, auto config>
std::unique_ptr<LanguageModel> make_with(const ModelSpec& spec) {
  return std::make_unique<Model>(config(spec));
}

// The list itself: the built-in models, then those register_model() added.
std::vector<ModelEntry>& models() {
  const nn::OptionsDecl none = nn::declare_options<nn::NoOptions>();
  static std::vector<ModelEntry> all = {
      {"gpt", "nanoGPT's GPT: pre-LN blocks of any registered attention (karpathy/nanoGPT, model.py)", "",
       nn::declare_options<GptOptions>(),
       {"transformer.wte.weight", "transformer.wpe.weight", "transformer.h.", 1, ""},
       check_with<gpt_config>, make_with<GPT, gpt_config>},
      {"pooled_lm", "a window of block_size tokens pooled by attention predicts the next "
       "(tonyduan/transformer-blocks, src/models.py)", "", nn::declare_options<PooledLMOptions>(),
       {"wte.weight", "pos.pe", "blocks.", 1, ""},
       check_with<pooled_lm_config>, make_with<PooledLM, pooled_lm_config>},
      {"elita", "ELiTA's Model2 stack as an LM (acosharma/elita-transformer, main.py)", "elita",
       nn::declare_options<elita::ElitaModelOptions>(),
       {"transformer.wte.weight", "", "transformer.h.", 1, ""},
       check_with<elita::elita_config>, make_with<elita::ElitaLM, elita::elita_config>},
      // The package's LinformerLM: an attention and a feed-forward entry per layer, and
      // projections E and F of [k, block_size].
      {"linformer", "LinformerLM, post-norm layers over exactly block_size positions "
       "(tatp22/linformer-pytorch)", "linformer", none,
       {"to_token_emb.weight", "", "linformer.seq.", 2, ".E.weight", 0,
        [](const ModelSpec& s) {
          const linformer::LinformerLMOptions o = linformer::linformer_lm_options(s);
          return StateLayout{"to_token_emb.weight", "", o.emb_dim > 0 ? "linformer.fn.seq." : "linformer.seq.", 2,
                             ".E.weight", o.width(), nullptr};
        }},
       check_with<linformer::linformer_lm_options>,
       make_with<linformer::LinformerLM, linformer::linformer_lm_options>},
  };
  return all;
}

}  // namespace

const std::vector<ModelEntry>& model_registry() { return models(); }

void register_model(ModelEntry entry) {
  ATTIC_CHECK(!entry.name.empty() && bool(entry.check) && bool(entry.make),
              "register_model: an entry needs a name, a check and a make");
  for (const ModelEntry& e : models())
    ATTIC_CHECK(e.name != entry.name, "register_model: '", entry.name, "' is registered already");
  models().push_back(std::move(entry));
}

std::string model_names() { return joined_names(model_registry()); }

const ModelEntry& find_model(const std::string& name) {
  for (const ModelEntry& e : model_registry())
    if (e.name == name) return e;
  fail("model must be ", model_names(), ", got ", util::quote_value(name));
}

std::vector<DeclaredAlias> declared_aliases() {
  std::vector<DeclaredAlias> out;
  auto declared = [](const nn::OptionsDecl& d, const nn::OptionAlias& a, const std::string& owner, bool of_model) {
    return DeclaredAlias{a, owner, of_model, d.default_of(a.option), d.type_of(a.option), d.help_of(a.option)};
  };
  for (const AttentionEntry& e : attention_registry())
    for (const nn::OptionAlias& a : e.options.aliases) out.push_back(declared(e.options, a, e.name, false));
  for (const ModelEntry& e : model_registry())
    for (const nn::OptionAlias& a : e.options.aliases) out.push_back(declared(e.options, a, e.name, true));
  return out;
}

std::vector<std::string> models_holding(const std::string& attention) {
  std::vector<std::string> out;
  for (const ModelEntry& e : model_registry())
    if (e.attention == attention) out.push_back(e.name);
  return out;
}

std::unique_ptr<LanguageModel> make_model(const std::string& name, const ModelSpec& spec) {
  return find_model(name).make(spec);
}

std::string block_attention(const std::string& model, const std::string& attention) {
  const ModelEntry& e = find_model(model);
  return e.attention.empty() ? attention : e.attention;
}

}  // namespace attic::models
