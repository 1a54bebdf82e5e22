// Autocast: mixed precision in a scope, PyTorch's torch.autocast in attic's shape.
//
//   {
//     AutocastGuard cast(kBFloat16);
//     Tensor loss = model.forward(x, y);   // its matrix products in bfloat16
//   }
//   loss.backward();                       // so are the products of their backward
//
// Inside the guard, matmul (and so linear, and every product a model writes with it) rounds
// its float32 operands to bfloat16 and sums in float32 (Backend::matmul_reduced, ops/matmul.cpp);
// its result is float32. So do the products of the fused attention, where the backend's
// kernel has them (ops/attention.cpp, fused_compute), while its softmax stays float32.
// Everything else stays float32, as PyTorch's autocast keeps LayerNorm, softmax, the loss and
// reductions: the elementwise ops, the loss, the optimizer. Parameters stay float32 (the
// master copy, Micikevicius et al., "Mixed Precision Training", 2018) and so do their
// gradients. A product's backward runs in the dtype its forward ran in, inside a guard or
// outside one; a checkpointed block (autograd/checkpoint.h) is recomputed in the mode its
// forward ran in.
//
// The mode lives here, beside grad mode, because autograd's checkpoint restores it; the ops
// read it.
//
// bfloat16 needs no loss scaling: it has float32's exponent range, so a gradient that float32
// holds does not underflow to zero in it; float16 (CUDA only) would.
#pragma once

#include <string>

#include "tensor/dtype.h"

namespace attic::autograd {

struct Autocast {
  // Whether float32 matrix products run in reduced precision on this thread now, and in which
  // dtype (bfloat16 or float16).
  static bool is_enabled();
  static DType dtype();
};

// RAII: on this thread, products in `dtype` inside: bfloat16 or float16, or float32 for
// autocast off (an Error for any other). The mode outside comes back at scope exit.
class AutocastGuard {
 public:
  explicit AutocastGuard(DType dtype);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  bool prev_enabled_;
  DType prev_dtype_;
};

// The mode now, as the dtype AutocastGuard takes: kFloat32 when off.
DType autocast_dtype();

// "bfloat16" -> kBFloat16, "float16" -> kFloat16, "float32" -> kFloat32: nanoGPT's dtype
// key. Anything else is an Error naming `what` and the value.
DType parse_autocast_dtype(const char* what, const std::string& name);

}  // namespace attic::autograd

namespace attic {
using autograd::Autocast;
using autograd::AutocastGuard;
using autograd::autocast_dtype;
using autograd::parse_autocast_dtype;
}  // namespace attic
