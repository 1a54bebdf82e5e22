// Chapter 17's exercise: write causal linear attention as an RNN loop over t.
// Build and check it with `make exercise N=17`; the solution is in solution/linear_rnn.cpp.
#include "linear_rnn.h"

#include <stdexcept>

using namespace attic;

// x [B, T, d] -> [B, T, d]
Tensor my_causal_linear_attention(nn::LinearAttention& la, const Tensor& x) {
  // TODO 1: project x with la.fc_q, la.fc_k and la.fc_v; apply φ = elu + 1 to the queries and
  //         keys; split the heads with split_heads(t, la.options.num_heads) -> [B, NH, T, ·].
  // TODO 2: start S = zeros({B, NH, dk, dv}) and z = zeros({B, NH, 1, dk}); for each t, add the
  //         outer product φ(k_t)ᵀ v_t (a matmul of [.., dk, 1] by [.., 1, dv]) to S and φ(k_t)
  //         to z, and keep o_t = φ(q_t) S / sum(φ(q_t) * z, {-1}, true).
  // TODO 3: cat the o_t along the time dimension, merge_heads, and apply la.fc_o.
  (void)la;
  (void)x;
  throw std::logic_error("TODO: my_causal_linear_attention is not written yet");
}
