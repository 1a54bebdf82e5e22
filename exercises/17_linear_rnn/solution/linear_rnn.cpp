// The solution of chapter 17's exercise: causal linear attention as an RNN loop over t.
//
// The chapter's question: Why does the loop need no mask at all?
// Answer: The loop needs no mask because at step t the state holds only tokens 0..t: causality is
// built into the order of the computation. The loop is also the slowest of the three forms (T small
// matrix products one after another, each recorded in the graph); the `cumsum` form computes the
// same prefix sums in a few large operations.
#include "linear_rnn.h"

using namespace attic;

// x [B, T, d] -> [B, T, d]
Tensor my_causal_linear_attention(nn::LinearAttention& la, const Tensor& x) {
  const int64_t NH = la.options.num_heads, T = x.size(1);
  Tensor q = split_heads(elu(la.fc_q->forward(x)) + 1.0, NH);  // [B, NH, T, dk]
  Tensor k = split_heads(elu(la.fc_k->forward(x)) + 1.0, NH);
  Tensor v = split_heads(la.fc_v->forward(x), NH);             // [B, NH, T, dv]
  Tensor S = zeros({x.size(0), NH, k.size(3), v.size(3)});
  Tensor z = zeros({x.size(0), NH, 1, k.size(3)});
  std::vector<Tensor> outs;
  for (int64_t t = 0; t < T; ++t) {
    Tensor qt = q.narrow(2, t, 1), kt = k.narrow(2, t, 1), vt = v.narrow(2, t, 1);  // [B, NH, 1, ·]
    S = S + matmul(kt.transpose(-2, -1), vt);  // the outer product φ(k_t) v_tᵀ
    z = z + kt;
    outs.push_back(matmul(qt, S) / sum(qt * z, {-1}, true));  // [B, NH, 1, dv]
  }
  return la.fc_o->forward(merge_heads(cat(outs, 2)));
}
