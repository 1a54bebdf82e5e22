// The decayed prefix sum on the CPU: out_t = in_t + r_t ⊙ out_{t−1} along one dim (see
// tensor/backend.h; ops/decayed_cumsum.cpp holds the op and its derivative).
// Steps go in order along dim, and each step is one strided pass over a whole slice, so
// that the innermost (usually contiguous) dim vectorizes; a line-by-line loop (scan.h's
// naive reference) would stride through memory at every step.
#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/strided.h"

namespace attic::cpu {

void CpuBackend::decayed_cumsum(const KTensor& out, const KTensor& in, const KTensor& r,
                                int64_t dim, bool reverse) {
  const int64_t n = in.shape[size_t(dim)];
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    for (int64_t k = 0; k < n; ++k) {
      const int64_t t = reverse ? n - 1 - k : k;
      const KTensor o = select_dim(out, dim, t), x = select_dim(in, dim, t);
      if (k == 0) {  // out_t = in_t
        strided_rows<2>(o.shape, {&o.strides, &x.strides}, [&](auto off, int64_t rn, auto st) {
          T* po = o.ptr<T>() + off[0];
          const T* px = x.ptr<T>() + off[1];
          for (int64_t j = 0; j < rn; ++j) po[j * st[0]] = px[j * st[1]];
        });
        continue;
      }
      // out_t = in_t + decay ⊙ out_prev, decay = r_t (forward) or r_{t+1} (reverse)
      const KTensor prev = select_dim(out, dim, reverse ? t + 1 : t - 1);
      const KTensor d = select_dim(r, dim, reverse ? t + 1 : t);
      strided_rows<4>(o.shape, {&o.strides, &x.strides, &d.strides, &prev.strides},
                      [&](auto off, int64_t rn, auto st) {
                        T* po = o.ptr<T>() + off[0];
                        const T* px = x.ptr<T>() + off[1];
                        const T* pd = d.ptr<T>() + off[2];
                        const T* pp = prev.ptr<T>() + off[3];
                        for (int64_t j = 0; j < rn; ++j)
                          po[j * st[0]] = px[j * st[1]] + pd[j * st[2]] * pp[j * st[3]];
                      });
    }
  });
}

}  // namespace attic::cpu
