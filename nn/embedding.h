// Embedding: a lookup table. Row i of weight [V, C] is the vector of token i.
#pragma once

#include "nn/module.h"

namespace attic::nn {

class Embedding : public UnaryModule {
 public:
  // weight ~ N(0, 1), PyTorch's default.
  Embedding(int64_t num_embeddings, int64_t embedding_dim);
  // ids int64 of any shape S -> S + [C]
  Tensor forward(const Tensor& ids) override;

  Tensor weight;  // [V, C]
};

}  // namespace attic::nn
