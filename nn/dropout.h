// Dropout as a module: active in train(), the identity in eval().
#pragma once

#include "nn/module.h"

namespace attic::nn {

class Dropout : public UnaryModule {
 public:
  explicit Dropout(double p = 0.5, Generator* gen = nullptr);
  Tensor forward(const Tensor& x) override { return dropout(x, p, is_training(), gen); }

  double p;
  Generator* gen;  // nullptr: the default generator
};

}  // namespace attic::nn
