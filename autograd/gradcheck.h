// gradcheck: compares the gradients autograd computes with central finite differences,
//   d out_j / d x_k  ≈  (f(x + eps e_k)_j - f(x - eps e_k)_j) / (2 eps),
// accepting |analytical - numerical| <= atol + rtol |numerical| (PyTorch's defaults).
#pragma once

#include <functional>
#include <vector>

#include "tensor/tensor.h"

namespace attic::autograd {

struct GradcheckOptions {
  double eps = 1e-6;
  double atol = 1e-5;
  double rtol = 1e-3;
};

// inputs must be float64; those with requires_grad are checked. Returns true, or throws
// attic::Error naming the op, the input, the output and input elements, and both values.
bool gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& f,
               const std::vector<Tensor>& inputs, GradcheckOptions options = {});

}  // namespace attic::autograd
