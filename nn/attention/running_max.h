// The running (prefix) maximum used as a shift by attentions that keep prefix sums of
// exponentials: causal exp linear attention (nn/attention/linear_attention.cpp) and ELiTA
// (models/elita/attention2.cpp). A shift that cancels between numerator and denominator
// changes no value, so it carries no gradient: the result is detached.
#pragma once

#include "ops/ops.h"

namespace attic::nn {

// x [..., N, ...] -> the same shape: m_i = max(x_0, ..., x_i) along dim, detached.
// attic has no prefix-max kernel; the values go through the host, which is linear in the
// number of elements and cheap next to the sums it shifts.
Tensor running_max(const Tensor& x, int64_t dim);

}  // namespace attic::nn
