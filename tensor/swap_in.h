// Swap-in points: a kernel of your own in place of the CPU backend's, for every op that calls
// it, the way minitorch's learners replace its operators and then train on them. The book's
// exercises plug in here: chapter 2's strided loop serves the elementwise binary ops (add,
// mul, ...), chapter 6's AdamW loop steps every optimizer's parameters. (Chapter 3's backward
// engine swaps in at autograd/engine_swap.h.)
//
// A swapped-in kernel sees what the backend would: KTensors with out's shape (broadcast dims
// carry stride 0). It returns false to hand a call back to the backend (a dtype or an op it
// does not do). Only CPU tensors go through it. Setting one is process-wide: set it before
// the ops run, not while another thread runs them.
#pragma once

#include <vector>

#include "tensor/backend.h"

namespace attic {

using BinaryKernel = bool (*)(BinaryOp op, const KTensor& out, const KTensor& a,
                              const KTensor& b);
using AdamKernel = bool (*)(const KTensor& p, const KTensor& g, const KTensor& m,
                            const KTensor& v, const AdamStep& step);

// Install a kernel (nullptr: the backend's again); each returns the one it replaces.
BinaryKernel swap_in_binary(BinaryKernel kernel);
AdamKernel swap_in_adam_step(AdamKernel kernel);

// be.binary(op, out, a, b), unless a swapped-in kernel takes the call.
void run_binary(Backend& be, BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b);
// be.adam_steps(slots), unless a swapped-in kernel takes them: then it runs each slot in turn.
void run_adam_steps(Backend& be, const std::vector<AdamSlot>& slots);

// Installs a kernel for the scope of the object, then puts back the one before it.
template <class Kernel, Kernel (*Swap)(Kernel)>
class SwapInGuard {
 public:
  explicit SwapInGuard(Kernel kernel) : previous_(Swap(kernel)) {}
  ~SwapInGuard() { Swap(previous_); }
  SwapInGuard(const SwapInGuard&) = delete;
  SwapInGuard& operator=(const SwapInGuard&) = delete;

 private:
  Kernel previous_;
};
using BinarySwap = SwapInGuard<BinaryKernel, swap_in_binary>;
using AdamSwap = SwapInGuard<AdamKernel, swap_in_adam_step>;

}  // namespace attic
