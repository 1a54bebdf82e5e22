#include "models/linformer/positional_embedding.h"

#include <cmath>
#include <vector>

namespace attic::models::linformer {

PositionalEmbedding::PositionalEmbedding(int64_t channels) {
  ATTIC_CHECK(channels > 0 && channels % 2 == 0, "linformer PositionalEmbedding: channels must be even, got ",
              channels);
  // In float32, as the package computes it: 1 / 100000^(2i/E).
  std::vector<float> f(size_t(channels / 2));
  for (size_t i = 0; i < f.size(); ++i)
    f[i] = 1.0f / std::pow(100000.0f, float(2 * i) / float(channels));
  inv_freq = register_buffer("inv_freq", from_vector(f));
}

Tensor PositionalEmbedding::forward(int64_t n, int64_t offset) const {
  Tensor t = arange(double(offset), double(offset + n), 1.0, TensorOptions(inv_freq.dtype()).device(inv_freq.device()))
                 .view({n, 1});
  Tensor angle = t * inv_freq.view({1, -1});  // [n, E/2]
  return cat({sin(angle), cos(angle)}, -1).unsqueeze(0);
}

}  // namespace attic::models::linformer
