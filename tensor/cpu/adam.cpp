// The fused Adam / AdamW step: one pass over p, g, m, v instead of the dozen tensor ops (and
// temporaries) of optim/adam.cpp's reference form. The arithmetic is that form's, op for op
// and in its order, so both round the same way in float64; tests/optim/test_adam.cpp checks
// the two against each other.
#include <cmath>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu {

// p, g, m, v: [N] contiguous, one dtype. t is the step count behind the bias corrections:
//   (Adam) g += wd p  |  (AdamW) p *= 1 - lr wd
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g²
//   p -= lr / (1 - b1^t) · m / (√v / √(1 - b2^t) + eps)
void CpuBackend::adam_step(const KTensor& p, const KTensor& g, const KTensor& m, const KTensor& v,
                           const AdamStep& s) {
  dispatch_floating(p.dtype, [&](auto z) {
    using T = decltype(z);
    T* pp = p.ptr<T>();
    const T* pg = g.ptr<T>();
    T* pm = m.ptr<T>();
    T* pv = v.ptr<T>();
    const T b1 = T(s.beta1), b2 = T(s.beta2), one_b1 = T(1 - s.beta1), one_b2 = T(1 - s.beta2);
    const T decay = T(1 - s.lr * s.weight_decay), wd = T(s.weight_decay), eps = T(s.eps);
    const T sqrt_bc2 = T(std::sqrt(s.bias_correction2)), step = T(-s.lr / s.bias_correction1);
    const bool decoupled = s.decoupled, l2 = !s.decoupled && s.weight_decay != 0;
    // Captured by value: a store through pp could otherwise alias the captured pointers
    // themselves, and GCC would reload them every iteration instead of vectorizing.
    parallel_for(0, p.numel(), 65536, [=](int64_t lo, int64_t hi) {
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
    });
  });
}

}  // namespace attic::cpu
