#include "nn/attention/positional_encoding.h"

#include <cmath>
#include <numbers>
#include <vector>

namespace attic::nn {

PositionalEncoding::PositionalEncoding(int64_t dim, int64_t max_length, double dropout) {
  ATTIC_CHECK(dim > 0 && max_length > 0, "PositionalEncoding: dim and max_length must be positive, got ",
              dim, " and ", max_length);
  std::vector<float> v(size_t(numel_of({max_length, dim})));  // throws when it cannot count
  const double base = double(max_length) / (2.0 * std::numbers::pi);
  for (int64_t t = 0; t < max_length; ++t)
    for (int64_t m = 0; m < dim; m += 2) {
      const double w = std::pow(base, -double(m) / double(dim));
      v[size_t(t * dim + m)] = float(std::sin(w * double(t)));
      if (m + 1 < dim) v[size_t(t * dim + m + 1)] = float(std::cos(w * double(t)));
    }
  pe = register_buffer("pe", from_vector(v, {max_length, dim}));
  drop = register_module("drop", std::make_shared<Dropout>(dropout));
}

// x [B, T, dim] -> [B, T, dim]
Tensor PositionalEncoding::forward(const Tensor& x) {
  ATTIC_CHECK(x.dim() == 3 && x.size(1) <= pe.size(0) && x.size(2) == pe.size(1),
              "PositionalEncoding: input of shape ", str(x.shape()), " must be [B, T <= ",
              pe.size(0), ", ", pe.size(1), "]");
  return drop->forward(x + pe.narrow(0, 0, x.size(1)).to(x.dtype()));
}

}  // namespace attic::nn
