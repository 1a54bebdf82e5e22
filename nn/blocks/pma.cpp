#include "nn/blocks/pma.h"

#include "nn/init.h"

namespace attic::nn {

PMA::PMA(int64_t dim, int64_t k, int64_t num_heads, const AttentionFactory& attention, bool norm) {
  ATTIC_CHECK(k > 0, "PMA: num_seeds must be positive, got ", k);
  seeds = register_parameter("seeds", empty({k, dim}));
  init::xavier_normal_(seeds);
  mab = register_module("mab", std::make_shared<MAB>(dim, dim, num_heads, attention, norm));
}

// x [B, N, dim] -> [B, k, dim]
Tensor PMA::forward(const Tensor& x, const Tensor& keep) {
  ATTIC_CHECK(x.dim() == 3 && x.size(2) == seeds.size(1), "PMA: input of shape ", str(x.shape()),
              " must be [B, N, ", seeds.size(1), "]");
  Tensor S = seeds.to(x.dtype()).unsqueeze(0).expand({x.size(0), -1, -1});  // [B, k, dim]
  return mab->forward(S, x, keep);
}

}  // namespace attic::nn
