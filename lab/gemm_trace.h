// A record of the float products that a stretch of work asks of cpu::gemm, and a replay of
// them alone: the time a training step would take if it were nothing but its matrix
// products, measured in the same run as the step (attic bench train --products).
//
// The record keeps each call's sizes, strides, triangle and accumulate flag, not its data;
// the replay runs the same calls on buffers of its own, so it times the products with
// operands that stay warm in cache between calls, which is the best case the step's GEMMs
// could reach.
//
// It records through the GEMM's observer hook (cpu::set_gemm_observer), which it sets while a
// record runs and clears after: the kernel holds no measurement code.
#pragma once

#include <cstdint>
#include <vector>

#include "tensor/cpu/gemm.h"

namespace attic::lab {

using cpu::GemmCall;
using cpu::Triangle;

// Starts recording every gemm<float> call, from any thread. Error if a record is running, or
// if another observer is set.
void start_gemm_trace();

// Stops recording and returns the calls in the order they began. Error if none is running.
std::vector<GemmCall> stop_gemm_trace();

// Whether a record is running.
bool gemm_trace_on();

// The floating-point operations a call does: 2 M N K multiply-adds' worth, less what its
// triangle leaves out (kLowerC: only C(i, j) with j <= i; kLowerA: row i sums k <= i;
// kUpperA: row i sums k >= i), as gemm_naive on the zeroed triangle would count them.
double gemm_call_flops(const GemmCall& call);

// The recorded calls, replayed on buffers sized for the largest of them (A and B filled with
// values in [-1, 1), C zeroed, one C for each thread), at the current thread count. A run of consecutive nested
// calls is replayed as it ran: spread over the threads by a parallel_for, each call on one.
class GemmReplay {
 public:
  explicit GemmReplay(std::vector<GemmCall> calls);
  void run();
  const std::vector<GemmCall>& calls() const { return calls_; }
  double flops() const;  // the sum of gemm_call_flops

 private:
  std::vector<GemmCall> calls_;
  std::vector<float> a_, b_, c_;  // c_: one copy of C for each thread, c_size_ floats each
  int64_t c_size_ = 1;
  std::vector<int64_t> a_base_, b_base_;  // per call, the offset of element (0, 0) in a_, b_
};

}  // namespace attic::lab
