// The two lists of attic's building blocks by name: the attentions and the language models.
//
//   attic train config/shakespeare_char_cpu.cfg --attention=linear_elu
//   attic train config/shakespeare_char_cpu.cfg --model=elita
//
// An attention entry says how to build it as a GPT sublayer (a CausalMixer over x
// [B, T, C]) and, where it has one, as the q, k, v attention of the Transformer blocks
// (nn::Attention: encoder, decoder, Set Transformer). A model entry builds a LanguageModel
// from a ModelSpec and says where its state_dict keeps the sizes it grows with.
//
// Adding either adds its folder and one line in registry.cpp; the models, the training
// loop and the CLI read these lists and need no change (register_attention and
// register_model add one from outside the library). The registry sits at the top of
// models/, since it names attentions that live beside their models (ELiTA's, the
// Linformer's, reflex and route) as well as nn/'s own; nn/'s blocks never read it: they
// take an nn::AttentionFactory, which attention_factory() below makes from a name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/language_model.h"
#include "nn/attention/attention.h"
#include "nn/attention/causal_mixer.h"
#include "nn/attention/declared_options.h"

namespace attic::models {

using nn::Attention;
using nn::AttentionOptions;
using nn::CausalMixer;
using nn::MixerOptions;

struct AttentionEntry {
  std::string name;
  std::string summary;  // one line: what it computes and where it comes from
  // Its own options (--attention_options), declared once by a struct
  // (nn/attention/declared_options.h): nn::declare_options<nn::NoOptions>() for none.
  nn::OptionsDecl options;
  // The GPT sublayer. Never empty.
  std::function<std::shared_ptr<CausalMixer>(const MixerOptions&)> make_mixer;
  // The q, k, v form for the Transformer blocks; empty when the attention has none (one
  // that reads earlier layers, say, has no meaning inside an encoder block).
  std::function<std::shared_ptr<Attention>(const AttentionOptions&)> make_attention;
};

// Every attention, in the order --help lists them.
const std::vector<AttentionEntry>& attention_registry();
// Adds an attention from outside the library (a program's own, say), after the built-in
// ones. Throws attic::Error for a name that is taken or an entry without make_mixer. Not
// thread-safe: register before any thread builds models, e.g. at the start of main.
void register_attention(AttentionEntry entry);
// The entry named name. Throws attic::Error "attention must be softmax, linear_elu, ...
// or route, got '<name>'" (every registered name) for an unknown name.
const AttentionEntry& find_attention(const std::string& name);
// "softmax, linear_elu, linear_exp, ... or route": the names, in order, as messages write them.
std::string attention_names();
// For --help: each attention that takes options, "attention_options of NAME:" and one line
// per option with its default, type and help, from its declaration.
std::string attention_options_usage();

// The GPT sublayer registered as name, built from options (whose args it must all use).
std::shared_ptr<CausalMixer> make_causal_mixer(const std::string& name, const MixerOptions& options);
// The q, k, v attention registered as name. Throws attic::Error naming it when it has no
// such form.
std::shared_ptr<Attention> make_attention(const std::string& name, const AttentionOptions& options);
// The blocks' factory for the q, k, v attention registered as name; throws at once, as
// make_attention would, for an unknown name or one without that form.
nn::AttentionFactory attention_factory(const std::string& name);

// Where a model's state_dict keeps what its sizes shape, so that a checkpoint's config can
// be checked against the file's tensors (names and shapes only) before anything is built.
struct StateLayout {
  std::string tokens;     // the token embedding, [vocab_size, n_embd]
  std::string positions;  // a position table [block_size, n_embd]; "" for none
  std::string layers;     // the prefix of the layer list, whose entries are "<layers><i>."
  int64_t per_layer = 1;  // entries of that list per layer
  std::string by_block;   // a suffix: every tensor named "*<by_block>" is [*, block_size]; "" for none
  int64_t width = 0;      // the token embedding's width; 0: n_embd
  // Where a model's options change the names or the width (the Linformer LM's emb_dim wraps
  // its layers in a projection, "linformer.fn.seq.", of that width): the layout for a spec.
  std::function<StateLayout(const ModelSpec&)> for_spec = nullptr;
};

struct ModelEntry {
  std::string name;
  std::string summary;  // one line: what it is and where it comes from
  // The attention every block holds whatever spec.attention says ("elita" for the ELiTA
  // LM), as a checkpoint records it; "" when it is spec.attention.
  std::string attention;
  // Its own options (ModelSpec::model_options), declared once, as an attention's are.
  nn::OptionsDecl options;
  StateLayout layout;
  // Throws attic::Error, naming the key, for a spec that make would refuse; builds nothing.
  std::function<void(const ModelSpec&)> check;
  // The model of spec (spec.vocab_size > 0), initialized as its original initializes it.
  std::function<std::unique_ptr<LanguageModel>(const ModelSpec&)> make;
};

// Every model, in the order --help lists them; the first is the default.
const std::vector<ModelEntry>& model_registry();
// Adds a model from outside the library, after the built-in ones. Throws attic::Error for a
// name that is taken or an entry without check and make. Not thread-safe, as
// register_attention.
void register_model(ModelEntry entry);
// The entry named name. Throws attic::Error "model must be gpt, pooled_lm, elita or
// linformer, got '<name>'" (every registered name) for an unknown name.
const ModelEntry& find_model(const std::string& name);
// "gpt, pooled_lm, elita or linformer"
std::string model_names();
// The model registered as name, built from spec.
std::unique_ptr<LanguageModel> make_model(const std::string& name, const ModelSpec& spec);
// An older spelling that a registered attention or model declares for one of its options
// (nn::OptionAlias), with its owner: what attic train binds as a key of its own.
struct DeclaredAlias {
  nn::OptionAlias alias;
  std::string owner;      // the attention or model that declares it
  bool of_model = false;  // a model's option (ModelSpec::model_options), not an attention's
  std::string default_text;  // the option's declared default
  std::string type, help;    // the option's declared type ("int") and help
};
std::vector<DeclaredAlias> declared_aliases();
// The names of the models whose blocks always hold attention ("elita" -> "elita").
std::vector<std::string> models_holding(const std::string& attention);

// The attention each block of model name holds when the config says attention
// (ModelEntry::attention).
std::string block_attention(const std::string& model, const std::string& attention);

}  // namespace attic::models
