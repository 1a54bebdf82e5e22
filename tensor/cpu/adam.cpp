// The fused Adam / AdamW step: one pass over p, g, m, v instead of the dozen tensor ops (and
// temporaries) of optim/adam.cpp's reference form. The arithmetic is that form's, op for op
// and in its order, so both round the same way in float64; tests/optim/test_adam.cpp checks
// the two against each other.
#include <algorithm>
#include <cmath>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Elements of one parallel chunk: below this, handing work to another thread costs more than
// the loop (about 0.1 ms of it on one core).
constexpr int64_t kGrain = 65536;

// p, g, m, v: [N] contiguous, one dtype; elements [lo, hi) of them. t is the step count
// behind the bias corrections:
//   (Adam) g += wd p  |  (AdamW) p *= 1 - lr wd
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g²
//   p -= lr / (1 - b1^t) · m / (√v / √(1 - b2^t) + eps)
template <class T>
void adam_range(const AdamSlot& slot, int64_t lo, int64_t hi) {
  const AdamStep& s = slot.step;
  // Locals, not slot's fields: a store through pp could otherwise alias them, and GCC would
  // load them again every iteration instead of vectorizing.
  T* const pp = slot.p.ptr<T>();
  const T* const pg = slot.g.ptr<T>();
  T* const pm = slot.m.ptr<T>();
  T* const pv = slot.v.ptr<T>();
  const T b1 = T(s.beta1), b2 = T(s.beta2), one_b1 = T(1 - s.beta1), one_b2 = T(1 - s.beta2);
  const T decay = T(1 - s.lr * s.weight_decay), wd = T(s.weight_decay), eps = T(s.eps);
  const T sqrt_bc2 = T(std::sqrt(s.bias_correction2)), step = T(-s.lr / s.bias_correction1);
  const bool decoupled = s.decoupled, l2 = !s.decoupled && s.weight_decay != 0;
  for (int64_t i = lo; i < hi; ++i) {
    T x = pp[i], gi = pg[i];
    if (decoupled) x = x * decay;
    if (l2) gi = gi + x * wd;
    const T mi = pm[i] * b1 + gi * one_b1;
    const T vi = pv[i] * b2 + gi * gi * one_b2;
    pm[i] = mi;
    pv[i] = vi;
    pp[i] = x + mi / (std::sqrt(vi) / sqrt_bc2 + eps) * step;
  }
}

}  // namespace

void Kernels::adam_step(const KTensor& p, const KTensor& g, const KTensor& m, const KTensor& v,
                        const AdamStep& s) {
  adam_steps({AdamSlot{p, g, m, v, s}});
}

// Every slot's step as one range of Σ N elements, the slots laid end to end, split across
// the threads as a whole: a model's parameters are mostly small (a bias, a LayerNorm, a
// 128 x 128 weight), each too small to split alone, so stepping them one by one left the
// other threads idle. Each element is updated alone, so the split changes no result.
void Kernels::adam_steps(const std::vector<AdamSlot>& slots) {
  std::vector<int64_t> start(slots.size() + 1, 0);  // slot i covers [start[i], start[i + 1])
  for (size_t i = 0; i < slots.size(); ++i) start[i + 1] = start[i] + slots[i].p.numel();
  parallel_for(0, start.back(), kGrain, [&](int64_t lo, int64_t hi) {
    // The last slot that starts at or before lo, then every slot up to hi.
    size_t i = size_t(std::upper_bound(start.begin(), start.end(), lo) - start.begin()) - 1;
    for (; i < slots.size() && start[i] < hi; ++i) {
      const int64_t a = std::max(lo, start[i]) - start[i];
      const int64_t b = std::min(hi, start[i + 1]) - start[i];
      if (a >= b) continue;
      dispatch_floating(slots[i].p.dtype, [&](auto z) {
        adam_range<decltype(z)>(slots[i], a, b);
      });
    }
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
