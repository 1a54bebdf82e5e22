// Chapter 5's exercise: a Linear layer written from scratch, nanoGPT's MLP block built from
// two of them, and the training loop that fits it with SGD.
#pragma once

#include <memory>
#include <vector>

#include "nn/nn.h"

// y = x Wᵀ + b: x [..., in] -> [..., out], with W [out, in] and b [out] registered as the
// parameters "weight" and "bias" and both drawn from PyTorch's default U[-1/√in, 1/√in].
struct MyLinear : attic::nn::UnaryModule {
  attic::Tensor weight, bias;
  MyLinear(int64_t in, int64_t out);
  attic::Tensor forward(const attic::Tensor& x) override;
};

// nanoGPT's MLP (model.py, without dropout): x [..., C] -> c_fc -> [..., 4C] -> GELU (exact,
// x Φ(x)) -> c_proj -> [..., C]. The two layers are children named "c_fc" and "c_proj".
struct MLP : attic::nn::UnaryModule {
  std::shared_ptr<MyLinear> c_fc, c_proj;
  explicit MLP(int64_t C);
  attic::Tensor forward(const attic::Tensor& x) override;
};

// Trains model on (x, y) for `steps` steps of plain SGD (optim::SGD, learning rate lr) on the
// mean squared error mean((model(x) - y)²). Returns the loss of every step, computed before
// that step's update: losses[0] is the loss of the model as it came in.
std::vector<double> train_sgd(attic::nn::UnaryModule& model, const attic::Tensor& x,
                              const attic::Tensor& y, int steps, double lr);
