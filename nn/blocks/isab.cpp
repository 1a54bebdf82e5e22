#include "nn/blocks/isab.h"

#include "nn/init.h"

namespace attic::nn {

ISAB::ISAB(int64_t dim, int64_t m, int64_t num_heads, const AttentionFactory& attention, bool norm) {
  ATTIC_CHECK(m > 0, "ISAB: num_points must be positive, got ", m);
  inducing = register_parameter("inducing", empty({m, dim}));
  init::xavier_normal_(inducing);
  mab1 = register_module("mab1", std::make_shared<MAB>(dim, dim, num_heads, attention, norm));
  mab2 = register_module("mab2", std::make_shared<MAB>(dim, dim, num_heads, attention, norm));
}

// x [B, N, dim] -> [B, N, dim]
Tensor ISAB::forward(const Tensor& x, const Tensor& keep) {
  ATTIC_CHECK(x.dim() == 3 && x.size(2) == inducing.size(1), "ISAB: input of shape ",
              str(x.shape()), " must be [B, N, ", inducing.size(1), "]");
  Tensor I = inducing.to(x.dtype()).unsqueeze(0).expand({x.size(0), -1, -1});  // [B, m, dim]
  Tensor h = mab1->forward(I, x, keep);  // the points read the set (padding masked out)
  return mab2->forward(x, h);            // every element reads the m points
}

}  // namespace attic::nn
