// The sinusoidal positional encoding of tonyduan/transformer-blocks, src/models.py
// (Vaswani et al. 2017, §6.1, with that repository's frequencies): for position t and
// column pair (m, m+1), m = 0, 2, 4, …,
//   PE[t, m] = sin(ω_m t),  PE[t, m+1] = cos(ω_m t),  ω_m = (max_length / 2π)^(−m/dim)
// so the wavelengths 2π/ω_m run from 2π up to max_length. y = dropout(x + PE[0..T−1]).
// PE is a buffer (not trained), as in tonyduan/transformer-blocks at commit 01581ee.
#pragma once

#include "nn/dropout.h"

namespace attic::nn {

class PositionalEncoding : public UnaryModule {
 public:
  PositionalEncoding(int64_t dim, int64_t max_length, double dropout = 0.0);
  // x [B, T, dim], T <= max_length -> [B, T, dim]
  Tensor forward(const Tensor& x) override;

  Tensor pe;  // [max_length, dim]
  std::shared_ptr<Dropout> drop;
};

}  // namespace attic::nn
