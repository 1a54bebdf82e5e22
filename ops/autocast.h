// Autocast: mixed precision in a scope, PyTorch's torch.autocast in attic's shape.
//
//   {
//     AutocastGuard cast(kBFloat16);
//     Tensor loss = model.forward(x, y);   // its matrix products in bfloat16
//   }
//   loss.backward();                       // so are the products of their backward
//
// Inside the guard, matmul (and so linear, and every product a model writes with it) rounds
// its float32 operands to bfloat16 and sums in float32 (Backend::matmul_reduced); its result
// is float32. Everything else stays float32, as PyTorch's autocast keeps LayerNorm, softmax,
// the loss and reductions: the elementwise ops, the attention op, the loss, the optimizer.
// Parameters stay float32 (the master copy) and so do their gradients; a product's backward
// runs in the dtype its forward ran in, wherever backward() is called.
//
// bfloat16 needs no loss scaling: it has float32's exponent range, so a gradient that float32
// holds does not underflow to zero in it; float16 (CUDA only) would.
#pragma once

#include <string>

#include "tensor/dtype.h"

namespace attic {

struct Autocast {
  // Whether float32 matrix products run in reduced precision on this thread now, and in which
  // dtype (bfloat16 or float16).
  static bool is_enabled();
  static DType dtype();
};

// RAII: reduced-precision products inside, on this thread. dtype is bfloat16 or float16 (an
// Error otherwise); enabled = false leaves the mode as it was outside (so that a caller can
// write AutocastGuard cast(dtype, use_it) unconditionally).
class AutocastGuard {
 public:
  explicit AutocastGuard(DType dtype, bool enabled = true);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  bool prev_enabled_;
  DType prev_dtype_;
};

// "bfloat16" -> kBFloat16, "float16" -> kFloat16, "float32" -> kFloat32: nanoGPT's dtype
// key. Anything else is an Error naming `what` and the value.
DType parse_autocast_dtype(const char* what, const std::string& name);

}  // namespace attic
