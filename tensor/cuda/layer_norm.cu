// LayerNorm on the GPU, forward and backward (karpathy/llm.c's layernorm kernels, with
// optional w, b). Row statistics are accumulated in double, as on the CPU (see
// tensor/cpu/layer_norm.cpp). The backward's equations are derived beside LayerNormBackward
// in ops/layer_norm.cpp.
#include <cuda_runtime.h>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

// Σ row / C over one row of C elements, by the whole block; every thread gets it.
template <class T>
__device__ double row_mean(const T* row, int64_t C) {
  double s = 0;
  for (int64_t i = threadIdx.x; i < C; i += blockDim.x) s += double(row[i]);
  return block_reduce(s, SumOp()) / double(C);
}

// x, out: [N, C] contiguous; mean, rstd: [N]; w, b: [C] or null. One block per row:
//   mean = Σx / C,  var = Σ(x - mean)² / C,  rstd = 1/√(var + eps),  out = (x - mean) rstd w + b
// Two passes over the row: the one-pass Σx² - (Σx)²/C cancels when the mean is large.
template <class T>
__global__ void layer_norm_kernel(int64_t N, int64_t C, double eps, T* out, T* mean, T* rstd,
                                  const T* x, const T* w, const T* b) {
  for (int64_t n = blockIdx.x; n < N; n += gridDim.x) {
    const T* row = x + n * C;
    const double m = row_mean(row, C);
    double v = 0;
    for (int64_t i = threadIdx.x; i < C; i += blockDim.x) v += (row[i] - m) * (row[i] - m);
    v = block_reduce(v, SumOp()) / double(C);
    const double s = 1.0 / sqrt(v + eps);
    T* o = out + n * C;
    for (int64_t i = threadIdx.x; i < C; i += blockDim.x) {
      const T norm = T((row[i] - m) * s);
      o[i] = norm * (w ? w[i] : T(1)) + (b ? b[i] : T(0));
    }
    if (threadIdx.x == 0) {
      mean[n] = T(m);
      rstd[n] = T(s);
    }
  }
}

// dx for one row per block. With norm = (x - mean) rstd and dnorm = dout w (see
// LayerNormBackward in ops/layer_norm.cpp):
//   dx = rstd (dnorm - mean(dnorm) - norm mean(dnorm norm))
// dout, x, dx: [N, C]; rstd: [N]; w: [C] or null. Each row's mean is summed again from x;
// mean_out [N] (or null) receives it, for layer_norm_dwdb_partial.
template <class T>
__global__ void layer_norm_dx_kernel(int64_t N, int64_t C, T* dx, double* mean_out,
                                     const T* dout, const T* x, const T* rstd, const T* w) {
  for (int64_t n = blockIdx.x; n < N; n += gridDim.x) {
    const T* row = x + n * C;
    const T* g = dout + n * C;
    const double m = row_mean(row, C);
    if (mean_out && threadIdx.x == 0) mean_out[n] = m;
    const T r = rstd[n];
    double dn_sum = 0, dn_norm_sum = 0;
    for (int64_t i = threadIdx.x; i < C; i += blockDim.x) {
      const T norm = T((row[i] - m) * r);
      const T dn = g[i] * (w ? w[i] : T(1));
      dn_sum += dn;
      dn_norm_sum += dn * norm;
    }
    const T mean_dn = T(block_reduce(dn_sum, SumOp()) / double(C));
    const T mean_dn_norm = T(block_reduce(dn_norm_sum, SumOp()) / double(C));
    for (int64_t i = threadIdx.x; i < C; i += blockDim.x) {
      const T norm = T((row[i] - m) * r);
      const T dn = g[i] * (w ? w[i] : T(1));
      dx[n * C + i] = r * (dn - mean_dn - norm * mean_dn_norm);
    }
  }
}

// Each row's mean, summed in double from x [N, C], into mean [N]: one block per row (for
// dw when dx, which finds it on the way, is not wanted).
template <class T>
__global__ void layer_norm_mean_kernel(int64_t N, int64_t C, double* mean, const T* x) {
  for (int64_t n = blockIdx.x; n < N; n += gridDim.x) {
    const double m = row_mean(x + n * C, C);
    if (threadIdx.x == 0) mean[n] = m;
  }
}

constexpr int kColTile = 32;  // columns per block in the dw / db column sums
constexpr int kRowLanes = 8;  // threads per column, each taking every 8th row of its chunk

// dw = Σ_rows dout norm and db = Σ_rows dout, in two deterministic stages. Stage 1: block
// (x, y) sums rows y, y + gridDim.y·8, ... of 32 columns into partial[y] (double, [chunks, C]).
// mean [N] is each row's mean in double (null when dw is not wanted: pw then stays 0).
template <class T>
__global__ void layer_norm_dwdb_partial(int64_t N, int64_t C, double* pw, double* pb,
                                        const T* dout, const T* x, const double* mean,
                                        const T* rstd) {
  __shared__ double sw[kRowLanes][kColTile], sb[kRowLanes][kColTile];
  const int64_t c = blockIdx.x * int64_t(kColTile) + threadIdx.x;
  double aw = 0, ab = 0;
  if (c < C)
    for (int64_t n = blockIdx.y * int64_t(kRowLanes) + threadIdx.y; n < N;
         n += int64_t(gridDim.y) * kRowLanes) {
      const double g = dout[n * C + c];
      if (mean) aw += g * ((double(x[n * C + c]) - mean[n]) * double(rstd[n]));
      ab += g;
    }
  sw[threadIdx.y][threadIdx.x] = aw;
  sb[threadIdx.y][threadIdx.x] = ab;
  __syncthreads();
  if (threadIdx.y == 0 && c < C) {
    for (int l = 1; l < kRowLanes; ++l) {
      aw += sw[l][threadIdx.x];
      ab += sb[l][threadIdx.x];
    }
    pw[blockIdx.y * C + c] = aw;
    pb[blockIdx.y * C + c] = ab;
  }
}

// Stage 2: one thread per column adds its chunks' partial sums, in chunk order.
template <class T>
__global__ void layer_norm_dwdb_final(int64_t chunks, int64_t C, const double* pw,
                                      const double* pb, T* dw, T* db) {
  const int64_t c = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (c >= C) return;
  double aw = 0, ab = 0;
  for (int64_t k = 0; k < chunks; ++k) {
    aw += pw[k * C + c];
    ab += pb[k * C + c];
  }
  if (dw) dw[c] = T(aw);
  if (db) db[c] = T(ab);
}

}  // namespace

void CudaBackend::layer_norm(const KTensor& out, const KTensor& mean, const KTensor& rstd,
                             const KTensor& x, const KTensor& w, const KTensor& b, double eps) {
  const int64_t C = x.shape.back(), N = C ? x.numel() / C : 0;
  if (N == 0) return;
  dispatch_floating(x.dtype, [&](auto z) {
    using T = decltype(z);
    layer_norm_kernel<T><<<int(std::min<int64_t>(N, 65535)), kReduceThreads>>>(
        N, C, eps, out.ptr<T>(), mean.ptr<T>(), rstd.ptr<T>(), x.ptr<T>(), w.ptr<T>(), b.ptr<T>());
  });
  check_launch("layer_norm_kernel");
}

void CudaBackend::layer_norm_backward(const KTensor& dx, const KTensor& dw, const KTensor& db,
                                      const KTensor& dout, const KTensor& x, const KTensor& rstd,
                                      const KTensor& w) {
  const int64_t C = x.shape.back(), N = C ? x.numel() / C : 0;
  if (N == 0) {
    if (dw.data) fill(dw, 0.0);
    if (db.data) fill(db, 0.0);
    return;
  }
  // Each row's mean in double, for dw: written by the dx kernel, or by its own kernel.
  const size_t mean_bytes = dw.data ? size_t(N) * sizeof(double) : 0;
  auto* row_means = dw.data ? static_cast<double*>(allocate(mean_bytes)) : nullptr;
  const int rows_grid = int(std::min<int64_t>(N, 65535));
  dispatch_floating(x.dtype, [&](auto z) {
    using T = decltype(z);
    if (dx.data) {
      layer_norm_dx_kernel<T><<<rows_grid, kReduceThreads>>>(
          N, C, dx.ptr<T>(), row_means, dout.ptr<T>(), x.ptr<T>(), rstd.ptr<T>(), w.ptr<T>());
      check_launch("layer_norm_dx_kernel");
    } else if (row_means) {
      layer_norm_mean_kernel<T><<<rows_grid, kReduceThreads>>>(N, C, row_means, x.ptr<T>());
      check_launch("layer_norm_mean_kernel");
    }
    if (dw.data || db.data) {
      const int64_t chunks = std::min<int64_t>((N + kRowLanes - 1) / kRowLanes, 128);
      const size_t nbytes = size_t(2 * chunks * C) * sizeof(double);
      auto* partial = static_cast<double*>(allocate(nbytes));
      const dim3 grid(unsigned((C + kColTile - 1) / kColTile), unsigned(chunks));
      layer_norm_dwdb_partial<T><<<grid, dim3(kColTile, kRowLanes)>>>(
          N, C, partial, partial + chunks * C, dout.ptr<T>(), x.ptr<T>(), row_means,
          rstd.ptr<T>());
      check_launch("layer_norm_dwdb_partial");
      layer_norm_dwdb_final<T><<<blocks_for(C), kThreads>>>(chunks, C, partial,
                                                             partial + chunks * C, dw.ptr<T>(),
                                                             db.ptr<T>());
      check_launch("layer_norm_dwdb_final");
      deallocate(partial, nbytes);  // stream order: later kernels reuse it only after these
    }
  });
  if (row_means) deallocate(row_means, mean_bytes);
}

}  // namespace attic::cuda
