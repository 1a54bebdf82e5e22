// Row kernels on the GPU: softmax / log_softmax along the last dim, and tril / triu.
#include <cuda_runtime.h>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

// One block per row of n elements (si, so apart); rows maps a row number to the offsets of
// its first element in out and in. Three passes over the row: max, Σ e^(x - m), write.
//   softmax(x)_i = e^(x_i - m) / Σ_j e^(x_j - m),  m = max_j x_j
//   log_softmax(x)_i = x_i - m - log Σ_j e^(x_j - m)
// Subtracting m cancels in the ratio but keeps every exponent ≤ 0, so e^x cannot overflow.
template <class T>
__global__ void softmax_kernel(Indexer<2> rows, int64_t nrows, int64_t n, int64_t so,
                               int64_t si, bool log_out, T* out, const T* in) {
  for (int64_t r = blockIdx.x; r < nrows; r += gridDim.x) {
    int64_t off[2];
    rows.offsets(r, off);
    const T* x = in + off[1];
    T* o = out + off[0];
    T m = -INFINITY;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) m = MaxOp()(m, x[i * si]);
    m = block_reduce(m, MaxOp());
    if (m == -INFINITY) m = 0;  // a row of -inf (fully masked): avoid inf - inf
    T sum = 0;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) sum += exp(x[i * si] - m);
    sum = block_reduce(sum, SumOp());
    if (log_out) {
      const T lse = log(sum);
      for (int64_t i = threadIdx.x; i < n; i += blockDim.x) o[i * so] = x[i * si] - m - lse;
    } else {
      const T inv = T(1) / sum;
      for (int64_t i = threadIdx.x; i < n; i += blockDim.x) o[i * so] = exp(x[i * si] - m) * inv;
    }
  }
}

// Element (i, j) of the last two dims [R, C] is kept when j - i <= k (lower) or
// j - i >= k (upper), else zeroed. i and j come from the flat element number.
template <class T>
__global__ void tril_kernel(Indexer<2> ix, int64_t n, int64_t R, int64_t C, int64_t k,
                            bool upper, T* out, const T* in) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    ix.offsets(e, off);
    const int64_t j = e % C, i = (e / C) % R;
    const bool keep = upper ? j - i >= k : j - i <= k;
    out[off[0]] = keep ? in[off[1]] : T(0);
  }
}

}  // namespace

void CudaBackend::softmax(const KTensor& out, const KTensor& in, bool log) {
  const size_t last = in.shape.size() - 1;
  const int64_t n = in.shape[last];
  if (in.numel() == 0) return;
  std::vector<int64_t> rows = in.shape;
  rows[last] = 1;
  const int64_t nrows = in.numel() / n;
  const auto ix = make_indexer<2>("softmax", rows, {&out.strides, &in.strides});
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    const int grid = int(std::min<int64_t>(nrows, 65535));
    softmax_kernel<T><<<grid, kReduceThreads>>>(ix, nrows, n, out.strides[last], in.strides[last],
                                                log, out.ptr<T>(), in.ptr<T>());
  });
  check_launch("softmax_kernel");
}

void CudaBackend::tril(const KTensor& out, const KTensor& in, int64_t k, bool upper) {
  const int64_t n = in.numel();
  if (n == 0) return;
  const size_t nd = in.shape.size();
  const auto ix = make_indexer<2>("tril", in.shape, {&out.strides, &in.strides});
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    tril_kernel<T><<<blocks_for(n), kThreads>>>(ix, n, in.shape[nd - 2], in.shape[nd - 1], k,
                                                upper, out.ptr<T>(), in.ptr<T>());
  });
  check_launch("tril_kernel");
}

}  // namespace attic::cuda
