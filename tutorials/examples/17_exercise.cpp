// Chapter 17 exercise, solved: causal linear attention as an explicit RNN loop over t,
// from tensor ops only, checked against LinearAttention's causal forward. Per head:
//   S_t = S_{t-1} + phi(k_t) v_t^T     [dk, dv]
//   z_t = z_{t-1} + phi(k_t)           [dk]
//   o_t = phi(q_t)^T S_t / phi(q_t)^T z_t
// with q, k, v the projections fc_q, fc_k, fc_v of x and phi = elu + 1; then fc_o.
#include <iostream>

#include "nn/attention/linear_attention.h"
#include "tensor/threads.h"

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
    S = S + matmul(kt.transpose(-2, -1), vt);  // the outer product phi(k_t) v_t^T
    z = z + kt;
    outs.push_back(matmul(qt, S) / sum(qt * z, {-1}, true));  // [B, NH, 1, dv]
  }
  return la.fc_o->forward(merge_heads(cat(outs, 2)));
}

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  manual_seed(10);
  nn::AttentionOptions o;
  o.dim_q = o.dim_k = o.dim_v = 12;
  o.num_heads = 3;
  nn::LinearAttention la(o, nn::FeatureMap::EluPlusOne);
  Tensor x = randn({2, 9, 12});
  Tensor mine = my_causal_linear_attention(la, x);
  Tensor library = la.forward(x, x, x, Tensor(), true);
  std::cout << "shape " << str(mine.shape()) << "\n";
  std::cout << "my RNN loop == LinearAttention causal: "
            << (max(abs(mine - library)).item<double>() < 1e-5) << "\n";
  // and the gradients agree too
  Tensor xa = x.detach().requires_grad_(), xb = x.detach().requires_grad_();
  sum(my_causal_linear_attention(la, xa)).backward();
  sum(la.forward(xb, xb, xb, Tensor(), true)).backward();
  std::cout << "gradients agree: " << (max(abs(xa.grad() - xb.grad())).item<double>() < 1e-4)
            << "\n";
  return 0;
}
