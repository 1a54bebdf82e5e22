// ELiTA's time-linear attention, Attention2 of acosharma/elita-transformer (main.py): a
// softmax whose logits split into a per-key part and a per-query part, so that every row's
// sums are prefix sums. Per head h (of H), with scalar keys and sinusoidal positions:
//
//   π1_i = Σ_p c_p sin(a1_p t_i + b1_p)     π2_i likewise with a2, b2 (the same c)
//   s_j  = k1·x_j + π1_j                    the key part ("cross")
//   d_i  = k2·x_i                           the diagonal slot
//   r_i  = π2_i + k3·x_i                    the row part
//   v_j  = x_j Wv                           Wv = value_weight[h] [W, A]
//   y_i  = (e^{r_i} Σ_{j≤i} e^{s_j} v_j + e^{d_i} v_i) / (e^{r_i} Σ_{j≤i} e^{s_j} + e^{d_i})
//   out_i = Σ_h Wo_h y_i                    Wo = output_weight[h] [W, A]; heads are summed
//
// Row i is an exact softmax over i + 2 logits, {d_i} ∪ {r_i + s_j : j ≤ i}, with values
// {v_i} ∪ {v_j}: position i appears twice, once as a key and once in the diagonal slot.
// Time and memory are O(N) in the sequence length.
#pragma once

#include <string>

#include "nn/attention/causal_mixer.h"
#include "nn/attention/declared_options.h"
#include "nn/dropout.h"
#include "util/options.h"

namespace attic::models::elita {

// How the exponentials are kept finite.
enum class Numerics {
  Clip,    // the original: s, d and r are each clipped to [−20, 20] before exp
  Stable,  // exact: a running maximum shifts the prefix sums (RWKV-4's WKV kernel)
};
// Where the positions t_i come from.
enum class Positions {
  Relative,  // the original: t_i = i / (N − 1), so every output depends on N
  Absolute,  // t_i = i / (block_size − 1): causal at every N, an RNN for generation
};
Numerics parse_numerics(const std::string& text);    // "clip" | "stable"
Positions parse_positions(const std::string& text);  // "relative" | "absolute"
std::string to_string(Numerics n);
std::string to_string(Positions p);

struct Attention2Options {
  int64_t width = 0;       // W, the model width
  int64_t heads = 1;       // H
  int64_t att_w = 0;       // A, each head's value width
  int64_t pos_w = 16;      // P, sinusoids per positional part
  Numerics numerics = Numerics::Stable;
  Positions positions = Positions::Relative;
  int64_t block_size = 0;  // the longest N; what absolute positions divide by
  double dropout = 0.0;    // on the output

  void validate() const;  // throws attic::Error naming Attention2 and the values
};

// Its options as the GPT's sublayer (--attention_options, or the elita_* keys of attic
// train); the width and heads are the GPT's.
struct Attention2Args {
  int64_t att_w = 0;   // A; 0: hs = n_embd / n_head
  int64_t pos_w = 16;  // P
  std::string numerics = "stable";
  std::string positions = "relative";
  void bind(util::Options& o);
  // attic train's first spellings, elita_att_w, ..., still read from configs and checkpoints.
  static std::vector<nn::OptionAlias> aliases();
  // What a checkpoint records: all four, A resolved ("att_w=16,numerics=stable,pos_w=16,
  // positions=relative"), so that two spellings of one attention record the same text.
  static std::string record(const nn::AttentionArgs& given, int64_t n_embd, int64_t n_head);
};

// t [N]: t_i = i / (N − 1) (relative) or i / (block_size − 1) (absolute), starting at
// position offset; 0 where the divisor is 0.
Tensor positions(int64_t n, Positions mode, int64_t block_size, int64_t offset = 0);

// The heart of Attention2, per head: s, d, r [B, H, N] and v [B, H, N, A] ->
// y [B, H, N, A], y_i = (e^{r_i} Σ_{j≤i} e^{s_j} v_j + e^{d_i} v_i) / (e^{r_i} Σ_{j≤i} e^{s_j} + e^{d_i})
// as prefix sums, O(N). Clip clips each of s, d, r to [−20, 20] first.
Tensor prefix_softmax(Tensor s, Tensor d, Tensor r, const Tensor& v, Numerics numerics);
// The same as an explicit softmax over the i + 2 logits {d_i} ∪ {r_i + s_j : j ≤ i} of each
// row, O(N²): the reference prefix_softmax is tested against.
Tensor explicit_softmax(Tensor s, Tensor d, Tensor r, const Tensor& v, Numerics numerics);

class Attention2 : public nn::CausalMixer {
 public:
  // Parameters named and shaped as the original's Keras weights, initialized as Keras does:
  // k1, k2, k3 [H, W] and a1, a2, b1, b2, c [H, P, 1] ~ U(−0.05, 0.05); value_weight,
  // output_weight [H, W, A] glorot_uniform with Keras's fans, √(6 / (H (W + A))).
  explicit Attention2(const Attention2Options& options);
  // The GPT's sublayer: W = n_embd, H = n_head, and the options att_w (default hs = C/NH),
  // pos_w (16), numerics (stable) and positions (relative).
  explicit Attention2(const nn::MixerOptions& options);

  // x [B, N, W] -> [B, N, W], in O(N) time and memory.
  Tensor forward(const Tensor& x, const nn::MixerContext& ctx = {}) override;
  // The same through the explicit [B, H, N, N + 1] softmax over {r_i + s_j, j ≤ i} ∪ {d_i}:
  // O(N²), the reference the prefix-sum form is tested against.
  Tensor forward_explicit(const Tensor& x);

  // Absolute positions only (relative ones change with N, so nothing carries over): the
  // state is m, Σ e^{s_j − m} v_j and Σ e^{s_j − m} per head, A + 2 numbers.
  struct State : nn::MixerState {
    Tensor m;  // [B, H, 1] the running maximum of s (0 under Clip)
    Tensor S;  // [B, H, A] Σ_{j<length} e^{s_j − m} v_j
    Tensor Z;  // [B, H, 1] Σ_{j<length} e^{s_j − m}
  };
  std::unique_ptr<nn::MixerState> start_decoding() const override;
  // x [B, t, W] -> [B, t, W], one token after another through the state.
  Tensor step(nn::MixerState& state, const Tensor& x, const nn::MixerContext& ctx) override;
  std::string name() const override { return "elita"; }
  // a1, a2, b1, b2, c: vectors in [H, P, 1] form, kept out of weight decay
  std::vector<std::string> no_weight_decay() const override;

  // The per-token parts for x [B, N, W] at positions t [N]: s, d, r [B, H, N] and
  // v [B, H, N, A], before any clip.
  struct Parts {
    Tensor s, d, r, v;
  };
  Parts parts(const Tensor& x, const Tensor& t);

  Attention2Options options;
  Tensor k1, k2, k3;                   // [H, W]
  Tensor a1, a2, b1, b2, c;            // [H, P, 1]
  Tensor value_weight, output_weight;  // [H, W, A]
  std::shared_ptr<nn::Dropout> drop;

 private:
  void build();
  void check_input(const Tensor& x, int64_t offset) const;  // x [B, N, W] at positions offset..
  Tensor project_out(const Tensor& y);  // y [B, H, N, A] -> [B, N, W]
};

}  // namespace attic::models::elita
