// Linear attention (Katharopoulos et al. 2020, "Transformers are RNNs"), with the
// projections and init of tonyduan/transformer-blocks, src/blocks.py (as MultiHeadAttention,
// and no 1/√d scale). Per head, with feature map φ applied elementwise to the projected
// queries and keys:
//
//   non-causal   o_i = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ) / φ(q_i)ᵀ (Σ_j φ(k_j))           O(n)
//   causal       S_i = S_{i−1} + φ(k_i) v_iᵀ,  z_i = z_{i−1} + φ(k_i)
//                o_i = φ(q_i)ᵀ S_i / φ(q_i)ᵀ z_i                                   O(n)
//
// the d_k × d_v "context" Σ φ(k) vᵀ and the key sum are computed once (non-causal) or as
// prefix sums (causal); the causal form is an RNN whose state is (S, z): step() runs it one
// token at a time for generation. Both equal the explicit O(n²) normalized-kernel form
//   o_i = Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j)      (j ≤ i when causal)
// which forward_naive() computes, for tests and the benchmark.
#pragma once

#include "nn/attention/attention.h"
#include "nn/linear.h"

namespace attic::nn {

enum class FeatureMap {
  EluPlusOne,  // φ(x) = elu(x) + 1 > 0                         (Katharopoulos et al. 2020)
  Exp,         // φ(x) = exp(x), so φ(q)·φ(k) ≈ exp(q·k) only heuristically (Shen et al.);
               // the README of tonyduan/transformer-blocks names it, its code never
               // implements it
};

// How the causal form is computed; each equals the other up to rounding (tests check it).
enum class CausalForm {
  // Quadratic while T <= d_k d_v (its T² kernel matrix then holds no more numbers than the
  // prefix form's T d_k d_v sums), PrefixSums beyond.
  Auto,
  // S_i and z_i as prefix sums: a [B, NH, T, d_k, d_v] cumsum of outer products. Time and
  // memory linear in T, but T d_k d_v numbers, and T tiny products per head.
  PrefixSums,
  // The masked kernel matrix A_ij = φ(q_i)·φ(k_j) for j ≤ i, o = A V / A 1: two GEMMs per
  // head, T² numbers: a few large products instead of PrefixSums' T tiny ones, the faster
  // form while T stays small.
  Quadratic,
};

// φ(x) elementwise, without any shift.
Tensor feature_map_apply(FeatureMap feature_map, const Tensor& x);

// The attention between the projections, shared by LinearAttention and the GPT's
// CausalLinearAttention: qp [B, Tq, A], kp [B, Tk, A], vp [B, Tk, O] (projected queries,
// keys, values; A and O multiples of num_heads) -> [B, Tq, O], heads side by side.
// key_keep: undefined, or [B, Tk, 1] of 1 (keep) and 0 (drop) multiplying φ(k).
Tensor linear_attention(const Tensor& qp, const Tensor& kp, const Tensor& vp, int64_t num_heads,
                        FeatureMap feature_map, bool causal, const Tensor& key_keep = Tensor(),
                        CausalForm form = CausalForm::Auto);

// The recurrent state of the causal form, per batch element and head.
struct LinearAttentionState {
  Tensor S;  // [B, NH, d_k, d_v]  Σ φ(k_j) v_jᵀ so far
  Tensor z;  // [B, NH, d_k]       Σ φ(k_j) so far
  Tensor m;  // [B, 1, 1]          Exp only: the shift the sums are stored under
};
// One token of the causal form: qp, kp [B, 1, A], vp [B, 1, O] (the token's own key and
// value join the state first) -> [B, 1, O]. Start from LinearAttentionState{}.
Tensor linear_attention_step(LinearAttentionState& state, const Tensor& qp, const Tensor& kp,
                             const Tensor& vp, int64_t num_heads, FeatureMap feature_map);

class LinearAttention : public Attention {
 public:
  LinearAttention(const AttentionOptions& options, FeatureMap feature_map);
  // keep: undefined or [B, Tk] key padding (masked keys get φ(k) = 0). A full [B, Tq, Tk]
  // mask has no O(n) form and throws. A query with no kept key returns 0 (0/0 is defined
  // as 0 there).
  Tensor forward(const Tensor& q, const Tensor& k, const Tensor& v,
                 const Tensor& keep = Tensor(), bool causal = false) override;
  // The O(n²) kernel form through the same projections; keep may also be [B, Tq, Tk].
  Tensor forward_naive(const Tensor& q, const Tensor& k, const Tensor& v,
                       const Tensor& keep = Tensor(), bool causal = false);
  std::string name() const override;

  using State = LinearAttentionState;
  // One token of causal attention: q [B, dim_q], k [B, dim_k], v [B, dim_v] (the token's
  // own key and value join the state first) -> [B, dim_o]. Start from State{}.
  Tensor step(State& state, const Tensor& q, const Tensor& k, const Tensor& v);

  std::shared_ptr<Linear> fc_q, fc_k, fc_v, fc_o;
  AttentionOptions options;
  FeatureMap feature_map;
};

}  // namespace attic::nn
