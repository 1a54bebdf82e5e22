// The socket of the GPT's attention: a causal sequence mixer x [B, T, C] -> [B, T, C] in
// which output t depends on inputs 0..t only. A GPT block calls
//
//   x = x + attn(ln_1(x), ctx)        ctx: the layer index, the earlier blocks' inputs, mode
//
// and any attention that fits this signature plugs in: softmax (nanoGPT's
// CausalSelfAttention), linear attention, and the ones registered beside them
// (models/registry.h). An attention may also run one token at a time for generation
// (start_decoding / step): softmax keeps its keys and values, linear attention its
// d_k × d_v state, the RNN of Katharopoulos et al. 2020, "Transformers are RNNs".
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "nn/attention/attention_args.h"
#include "nn/module.h"

namespace attic::nn {

// What every GPT attention is built from: nanoGPT's GPTConfig fields that concern it, the
// layer it sits in, and its own options (e.g. "k=64" for a low-rank attention).
struct MixerOptions {
  int64_t n_embd = 0;      // C
  int64_t n_head = 1;      // NH; each head has hs = C / NH
  int64_t block_size = 0;  // T max
  int64_t n_layer = 1;     // blocks in the model
  int64_t layer = 0;       // this block's index, 0-based
  double dropout = 0.0;    // on the attention weights and on the output (resid_dropout)
  bool bias = true;        // biases in the projections
  AttentionArgs args;      // the attention's own options; each must be used (check_used)

  void validate(const std::string& who) const;  // throws attic::Error naming who
};

// What a block knows besides its input. earlier holds the residual-stream inputs of the
// blocks before this one, x_0 .. x_{layer−1}, each [B, T, C] (un-normalized), so
// back(1) = x_{i−1} and back(2) = x_{i−2}: what reflex and route attention read.
// pre_norm is the norm the block applied to the attention's own input (a GPT block's
// ln_1), for an attention that normalizes the earlier states the same way; null outside a
// block.
struct MixerContext {
  int64_t layer = 0;
  std::span<const Tensor> earlier = {};
  bool training = false;
  UnaryModule* pre_norm = nullptr;

  // x_{layer−n}, or an undefined tensor when there is no such block.
  Tensor back(size_t n) const {
    return n >= 1 && n <= earlier.size() ? earlier[earlier.size() - n] : Tensor();
  }
};

// The memory one attention carries from token to token during generation. length counts
// the tokens it has seen.
struct MixerState {
  virtual ~MixerState() = default;
  int64_t length = 0;
};

class CausalMixer : public Module {
 public:
  // x [B, T, C] -> [B, T, C], causal.
  virtual Tensor forward(const Tensor& x, const MixerContext& ctx = {}) = 0;

  // A fresh generation state, or nullptr when this attention has none (generation then
  // recomputes the whole context for every token, as nanoGPT does).
  virtual std::unique_ptr<MixerState> start_decoding() const { return nullptr; }
  // x [B, t, C]: the t tokens after the state.length ones already seen -> [B, t, C], equal
  // to the last t rows of forward() over the whole sequence. Updates state. ctx.earlier
  // holds the earlier blocks' inputs for these t tokens only.
  virtual Tensor step(MixerState& state, const Tensor& x, const MixerContext& ctx);

  // The name it is registered under ("softmax", "linear_elu", ...).
  virtual std::string name() const = 0;
  // True for an attention that reads the earlier blocks' inputs (ctx.earlier). A model keeps
  // those inputs alive through its forward only when one of its attentions does.
  virtual bool reads_earlier() const { return false; }
};

}  // namespace attic::nn
