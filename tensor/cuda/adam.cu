// The fused Adam / AdamW step on the GPU: one thread per parameter element reads p, g, m, v
// once and writes p, m, v, where optim/adam.cpp's reference form runs a dozen kernels (and
// temporaries). The arithmetic is tensor/cpu/adam.cpp's, op for op and in its order, with
// the same constants worked out on the host, so the two backends agree to rounding (nvcc may
// fuse a multiply and an add into one FMA, which rounds once instead of twice).
#include <cuda_runtime.h>

#include <cmath>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

// The step's scalars in the parameters' dtype, as tensor/cpu/adam.cpp computes them.
template <class T> struct AdamConsts {
  T b1, b2, one_b1, one_b2;  // beta1, beta2, 1 - beta1, 1 - beta2
  T decay, wd, eps;          // 1 - lr·wd (AdamW), wd (Adam's L2), eps
  T sqrt_bc2, step;          // √(1 - beta2^t), -lr / (1 - beta1^t)
  bool decoupled, l2;
};

// p, g, m, v: [n] contiguous.
//   (Adam) g += wd p  |  (AdamW) p *= 1 - lr wd
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g²
//   p -= lr / (1 - b1^t) · m / (√v / √(1 - b2^t) + eps)
template <class T>
__global__ void adam_step_kernel(int64_t n, AdamConsts<T> c, T* p, const T* g, T* m, T* v) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    T x = p[i], gi = g[i];
    if (c.decoupled) x = x * c.decay;
    if (c.l2) gi = gi + x * c.wd;
    const T mi = m[i] * c.b1 + gi * c.one_b1;
    const T vi = v[i] * c.b2 + gi * gi * c.one_b2;
    m[i] = mi;
    v[i] = vi;
    p[i] = x + mi / (sqrt(vi) / c.sqrt_bc2 + c.eps) * c.step;
  }
}

}  // namespace

// p, g, m, v: [N] contiguous, one dtype; s holds lr, betas, eps, weight decay and the bias
// corrections 1 - beta^t.
void CudaBackend::adam_step(const KTensor& p, const KTensor& g, const KTensor& m,
                            const KTensor& v, const AdamStep& s) {
  const int64_t n = p.numel();
  if (n == 0) return;
  dispatch_floating(p.dtype, [&](auto z) {
    using T = decltype(z);
    AdamConsts<T> c;
    c.b1 = T(s.beta1);
    c.b2 = T(s.beta2);
    c.one_b1 = T(1 - s.beta1);
    c.one_b2 = T(1 - s.beta2);
    c.decay = T(1 - s.lr * s.weight_decay);
    c.wd = T(s.weight_decay);
    c.eps = T(s.eps);
    c.sqrt_bc2 = T(std::sqrt(s.bias_correction2));
    c.step = T(-s.lr / s.bias_correction1);
    c.decoupled = s.decoupled;
    c.l2 = !s.decoupled && s.weight_decay != 0;
    adam_step_kernel<T><<<blocks_for(n), kThreads>>>(n, c, p.ptr<T>(), g.ptr<T>(), m.ptr<T>(),
                                                     v.ptr<T>());
  });
  check_launch("adam_step_kernel");
}

}  // namespace attic::cuda
