// The swap-in points of tensor/swap_in.h: one pointer per kernel, nullptr for the backend's.
#include "tensor/swap_in.h"

#include <atomic>

namespace attic {

namespace {
std::atomic<BinaryKernel> binary_kernel{nullptr};
std::atomic<AdamKernel> adam_kernel{nullptr};
}  // namespace

BinaryKernel swap_in_binary(BinaryKernel kernel) { return binary_kernel.exchange(kernel); }
AdamKernel swap_in_adam_step(AdamKernel kernel) { return adam_kernel.exchange(kernel); }

void run_binary(Backend& be, BinaryOp op, const KTensor& out, const KTensor& a,
                const KTensor& b) {
  const BinaryKernel mine = binary_kernel.load(std::memory_order_relaxed);
  if (mine && be.device() == Device::CPU && mine(op, out, a, b)) return;
  be.binary(op, out, a, b);
}

void run_adam_steps(Backend& be, const std::vector<AdamSlot>& slots) {
  const AdamKernel mine = adam_kernel.load(std::memory_order_relaxed);
  if (!mine || be.device() != Device::CPU) return be.adam_steps(slots);
  for (const AdamSlot& s : slots)
    if (!mine(s.p, s.g, s.m, s.v, s.step)) be.adam_step(s.p, s.g, s.m, s.v, s.step);
}

}  // namespace attic
