#include "nn/blocks/mab.h"

#include "nn/init.h"

namespace attic::nn {

MAB::MAB(int64_t dim, int64_t kv_dim, int64_t num_heads, const AttentionFactory& attention, bool norm) {
  ATTIC_CHECK(dim > 0 && kv_dim > 0, "MAB: dim and kv_dim must be positive, got ", dim, " and ", kv_dim);
  BlockOptions o;
  o.dim = dim;
  o.num_heads = num_heads;
  attn = register_module("attn", attention(o.attention_options(kv_dim)));
  fc = register_module("fc", std::make_shared<Linear>(dim, dim));
  // kaiming_normal with mode fan_out: σ = √(2 / fan_out); fc is square, so fan_out = fan_in
  init::kaiming_normal_(fc->weight);
  init::zeros_(fc->bias);
  // tonyduan/transformer-blocks' MAB has no norms; its README says "ScaleNorm throughout":
  // norms are the documented intent, on by default.
  if (norm) {
    sn_q = register_module("sn_q", std::make_shared<ScaleNorm>(dim));
    sn_kv = register_module("sn_kv", std::make_shared<ScaleNorm>(kv_dim));
    sn_h = register_module("sn_h", std::make_shared<ScaleNorm>(dim));
  }
}

// q [B, N, dim], x [B, M, kv_dim] -> [B, N, dim]
Tensor MAB::forward(const Tensor& q, const Tensor& x, const Tensor& keep) {
  Tensor qn = sn_q ? sn_q->forward(q) : q;
  Tensor xn = sn_kv ? sn_kv->forward(x) : x;
  Tensor h = q + attn->forward(qn, xn, xn, keep);
  return h + fc->forward(sn_h ? sn_h->forward(h) : h);
}

}  // namespace attic::nn
