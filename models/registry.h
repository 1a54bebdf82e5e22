// The one list of attentions, by name. Each entry says how to build the attention as a
// GPT sublayer (a CausalMixer over x [B, T, C]) and, where it has one, as the q, k, v
// attention of the Transformer blocks (nn::Attention: encoder, decoder, Set Transformer).
//
//   attic train config/shakespeare_char_cpu.cfg --attention=linear_elu
//
// Adding an attention adds its file and one line in registry.cpp; the GPT, the pooled LM,
// the encoder-decoder and the CLI read this list and need no change. The registry sits at
// the top of models/, since it names attentions that live beside their models (ELiTA's,
// the Linformer's, reflex and route) as well as nn/'s own; nn/'s blocks never read it:
// they take an nn::AttentionFactory, which attention_factory() below makes from a name.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nn/attention/attention.h"
#include "nn/attention/causal_mixer.h"

namespace attic::models {

using nn::Attention;
using nn::AttentionOptions;
using nn::CausalMixer;
using nn::MixerOptions;

struct AttentionEntry {
  std::string name;
  std::string summary;  // one line: what it computes and where it comes from
  std::string takes;    // its attention_options keys, e.g. "k, share"; "" for none
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

// The GPT sublayer registered as name, built from options (whose args it must all use).
std::shared_ptr<CausalMixer> make_causal_mixer(const std::string& name, const MixerOptions& options);
// The q, k, v attention registered as name. Throws attic::Error naming it when it has no
// such form.
std::shared_ptr<Attention> make_attention(const std::string& name, const AttentionOptions& options);
// The blocks' factory for the q, k, v attention registered as name; throws at once, as
// make_attention would, for an unknown name or one without that form.
nn::AttentionFactory attention_factory(const std::string& name);

}  // namespace attic::models
