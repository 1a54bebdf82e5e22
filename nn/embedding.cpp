#include "nn/embedding.h"

#include "nn/init.h"

namespace attic::nn {

Embedding::Embedding(int64_t V, int64_t C) {
  ATTIC_CHECK(V > 0 && C > 0, "Embedding: sizes must be positive, got ", V, " and ", C);
  weight = register_parameter("weight", empty({V, C}));
  init::normal_(weight);
}

Tensor Embedding::forward(const Tensor& ids) { return embedding(weight, ids); }

}  // namespace attic::nn
