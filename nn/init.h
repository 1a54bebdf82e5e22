// Parameter initialization, in place and outside the graph (torch.nn.init's names).
#pragma once

#include "ops/ops.h"

namespace attic::nn::init {

// t ~ N(mean, std²)
void normal_(Tensor& t, double mean = 0.0, double std = 1.0, Generator* gen = nullptr);
// t ~ U[a, b)
void uniform_(Tensor& t, double a = 0.0, double b = 1.0, Generator* gen = nullptr);
void zeros_(Tensor& t);
void ones_(Tensor& t);
void constant_(Tensor& t, double value);

// fan_in = size(1) · (receptive field), fan_out = size(0) · (receptive field) for a weight
// [out, in, ...] — the shape convention of Linear.
std::pair<int64_t, int64_t> fans(const Tensor& t);
// Glorot & Bengio (2010): U[-a, a] with a = gain · √(6 / (fan_in + fan_out)).
void xavier_uniform_(Tensor& t, double gain = 1.0, Generator* gen = nullptr);
// Keras's fan rule, for a kernel [..., in, out] as Keras stores it (x @ kernel): the
// receptive field is the product of the leading dims, fan_in = size(-2) · receptive,
// fan_out = size(-1) · receptive (keras.initializers, _compute_fans).
std::pair<int64_t, int64_t> keras_fans(const Tensor& t);
// Keras's default kernel init, glorot_uniform: U[-a, a], a = √(6 / (fan_in + fan_out)) with
// keras_fans. For [H, W, A] that is √(6 / (H (W + A))).
void keras_glorot_uniform_(Tensor& t, Generator* gen = nullptr);
// N(0, σ²) with σ = gain · √(2 / (fan_in + fan_out)).
void xavier_normal_(Tensor& t, double gain = 1.0, Generator* gen = nullptr);
// He et al. (2015) for leaky ReLU slope a: U[-b, b], b = √(6 / ((1 + a²) fan_in)).
// PyTorch's Linear default is a = √5, which gives b = 1/√fan_in.
void kaiming_uniform_(Tensor& t, double a = 0.0, Generator* gen = nullptr);
// N(0, σ²) with σ = √(2 / ((1 + a²) fan_in)).
void kaiming_normal_(Tensor& t, double a = 0.0, Generator* gen = nullptr);

}  // namespace attic::nn::init
