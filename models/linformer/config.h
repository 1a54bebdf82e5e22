// The Linformer's options, named as the linformer-pytorch package (tatp22/linformer-pytorch,
// linformer_pytorch.py) names its constructor arguments, with its defaults. Wang et al.
// 2020, "Linformer: Self-Attention with Linear Complexity", project the n keys and values
// of each head down to k rows with n × k matrices E and F; everything else is a post-norm
// Transformer.
#pragma once

#include <cstdint>
#include <string>

#include "models/model_spec.h"
#include "nn/attention/attention_args.h"
#include "util/options.h"

namespace attic::models::linformer {

// How E and F map n positions to k slots (the package's get_EF).
enum class Method {
  Learnable,    // a Linear(n → k) with bias over the sequence axis, xavier_normal weight
  Convolution,  // a Conv1d(d → d), kernel = stride = ⌊n/k⌋: each slot sums one window
  NoParams,     // a fixed random n × k matrix, never trained
};
// Which heads and layers share their E and F (Linformer paper, section 4).
enum class Sharing {
  None,       // every head of every layer has its own E and F: 2·h·L matrices
  Headwise,   // one E and one F per layer, for all its heads: 2·L
  KV,         // one P per layer, E = F = P: L
  Layerwise,  // one P for the whole model: 1
};
// How query i is kept from seeing tokens after i.
enum class Causal {
  None,
  // The package's causal=True: the (n, k) mask lets query i read slots 0..i. Every slot
  // projects all n positions, so future tokens still reach query i through them.
  Leaky,
  // Query i reads slots built from positions ≤ i only, K̄_i[s] = Σ_{j≤i} E[j, s] k_j, as
  // prefix sums (Peng et al. 2021, "ABC: Attention with Bounded-memory Control"), under
  // the same (n, k) mask: causal by construction.
  Prefix,
};
// What the forward keeps for backward (the package's checkpoint_level).
enum class Checkpoint {
  C0,  // everything
  C1,  // each layer (attention and feed-forward) is recomputed in backward
  C2,  // C1, and inside it each head is recomputed on its own
};
// In decoder mode, which attention gets the causal mask.
enum class DecoderMask {
  Self,     // the decoder's self-attention, as the package's README intends
  Context,  // the cross-attention over the encoder's output: what the package's code does
};

Method parse_method(const std::string& text);            // learnable | convolution | no_params
Sharing parse_sharing(const std::string& text);          // none | headwise | kv | layerwise
Causal parse_causal(const std::string& text);            // none | leaky | prefix
Checkpoint parse_checkpoint(const std::string& text);    // C0 | C1 | C2
std::string to_string(Method m);
std::string to_string(Sharing s);
std::string to_string(Causal c);
std::string to_string(Checkpoint c);
std::string to_string(DecoderMask m);

// The options a Linformer attention takes by name on the command line
// (--attention_options="k=16,causal=leaky"), for the GPT's attention and for model=linformer:
// every argument of the package's Linformer and LinformerLM that the train config does not
// already give (input_size is block_size, channels n_embd, nhead n_head, depth n_layer).
struct NamedOptions {
  int64_t k = 64;
  Sharing sharing = Sharing::Headwise;
  Method method = Method::Learnable;
  Causal causal = Causal::Prefix;
  Checkpoint checkpoint = Checkpoint::C0;
  bool full_attention = false;     // n × n softmax attention in the same heads, for comparison
  int64_t dim_d = 0;               // each head's width; 0: n_embd / n_head
  int64_t k_reduce_by_layer = 0;   // layer ℓ has max(1, k − ℓ·r) slots (not with layerwise)
  int64_t w_o_intermediate_dim = 0;  // m > 0: the heads' output goes h·d → m → C
  double dropout = -1;             // on P̄ and the heads' output; below 0: the config's dropout
  // model=linformer's own, refused in the GPT (whose MLP and embeddings are the GPT's):
  double dropout_ff = -1;          // the feed-forward's dropouts; below 0: the config's
  double dropout_tokens = -1;      // on embedding + positions; below 0: the config's
  std::string activation = "gelu";  // or relu, in the feed-forward
  int64_t ff_intermediate = 0;     // m > 0: layer 0 widens C → m, the last narrows m → C
  int64_t emb_dim = 0;             // the embedding width; 0: n_embd (else projected in and out)
  int64_t dim_ff = 0;              // the feed-forward's hidden width; 0: 4 · n_embd
};
// The same as the command line declares them (nn::read_options): the enums by name.
struct NamedArgs {
  int64_t k = 64;
  std::string sharing = "headwise", method = "learnable", causal = "prefix", checkpoint = "C0";
  bool full_attention = false;
  int64_t dim_d = 0, k_reduce_by_layer = 0, w_o_intermediate_dim = 0;
  double dropout = -1, dropout_ff = -1, dropout_tokens = -1;
  std::string activation = "gelu";
  int64_t ff_intermediate = 0, emb_dim = 0, dim_ff = 0;
  void bind(util::Options& o);
};
// Reads every option above from args, each defaulting to defaults'; any other key is an
// attic::Error listing them.
NamedOptions read_named_options(const nn::AttentionArgs& args, const NamedOptions& defaults);

// The stack: Linformer(input_size, channels, dim_k, ...) of the package.
struct LinformerOptions {
  int64_t input_size = 0;         // n: every input has exactly n positions
  int64_t channels = 0;           // C
  int64_t dim_k = 64;             // k: slots per head
  int64_t dim_ff = 256;           // the feed-forward's hidden width
  int64_t dim_d = 0;              // d, each head's width; 0: C / nhead
  double dropout_ff = 0.15;       // both dropouts of the feed-forward
  int64_t nhead = 4;              // h
  int64_t depth = 1;              // L
  double dropout = 0.1;           // on P̄ in each head and on the heads' joint output
  std::string activation = "gelu";  // or relu, in the feed-forward
  Checkpoint checkpoint_level = Checkpoint::C0;
  Sharing parameter_sharing = Sharing::Layerwise;
  int64_t k_reduce_by_layer = 0;  // layer ℓ has k_ℓ = max(1, k − ℓ·r) (not with layerwise)
  bool full_attention = false;    // plain n × n softmax attention instead, for comparison
  bool include_ff = true;
  int64_t w_o_intermediate_dim = 0;  // m > 0: the output projection is h·d → m → C
  bool decoder_mode = false;      // each layer adds a cross-attention over `embeddings`
  Causal causal = Causal::None;
  DecoderMask decoder_mask = DecoderMask::Self;
  Method method = Method::Learnable;
  int64_t ff_intermediate = 0;    // m > 0: layer 0 widens C → m, the last narrows m → C
  // no_params draws E and F from N(0, σ²). The paper and the package's README say variance
  // 1/k (σ = 1/√k); the package's code uses σ = 1/k. true keeps the code's σ.
  bool no_params_code_std = false;

  void validate(const std::string& who) const;  // throws attic::Error naming who
  int64_t head_dim() const { return dim_d > 0 ? dim_d : channels / nhead; }
  // k of layer ℓ: max(1, k − ℓ·r), or k under layerwise sharing (its one P has k slots).
  int64_t k_at(int64_t layer) const;
  // The width a layer reads and writes: C, or ff_intermediate between the first and last.
  int64_t channels_in(int64_t layer) const;
  int64_t channels_out(int64_t layer) const;
};

// LinformerLM(num_tokens, input_size, channels, ...) of the package: token embedding +
// sinusoidal positions, the stack, and an untied output head. Its defaults differ from the
// stack's: dim_k 64, dim_ff 1024, dropout_ff 0.1, depth 2, dropout 0.05.
struct LinformerLMOptions {
  int64_t num_tokens = 0;       // V
  int64_t emb_dim = 0;          // the embedding width; 0: channels (else projected in/out)
  double dropout_tokens = 0.1;  // on embedding + positions
  bool return_emb = false;      // no output head: [B, n, emb_dim] out
  LinformerOptions body = lm_defaults();

  static LinformerOptions lm_defaults();
  void validate(const std::string& who) const;
  int64_t width() const { return emb_dim > 0 ? emb_dim : body.channels; }
};

// `attic train --model=linformer`: the LinformerLM of spec.n_layer post-norm layers over
// exactly block_size positions, dim_ff (4·n_embd unless given), every dropout = spec.dropout, and the
// attention options k (64 or block_size), sharing (layerwise), method (learnable), causal
// (prefix or leaky: a language model) and checkpoint (C0). Its attention is linformer
// (softmax, the default, means the same here); another is an attic::Error.
LinformerLMOptions linformer_lm_options(const ModelSpec& spec);

}  // namespace attic::models::linformer
