// Activation functions as modules, for Sequential.
#pragma once

#include <string>

#include "nn/module.h"

namespace attic::nn {

class GELU : public UnaryModule {
 public:
  // "none": x Φ(x) exactly (nanoGPT); "tanh": GPT-2's approximation.
  explicit GELU(std::string approximate = "none") : approximate(std::move(approximate)) {}
  Tensor forward(const Tensor& x) override { return gelu(x, approximate); }
  std::string approximate;
};

class ReLU : public UnaryModule {
 public:
  Tensor forward(const Tensor& x) override { return relu(x); }
};

class Tanh : public UnaryModule {
 public:
  Tensor forward(const Tensor& x) override { return tanh(x); }
};

}  // namespace attic::nn
