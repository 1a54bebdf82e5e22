// Indexing CUDA kernels. The op has checked every index against its dim's size.
// The two adds (index_add, scatter_add) may hit one element from many threads, so they use
// atomicAdd: correct, but floating sums of repeated indices come out in no fixed order, so
// their last bits can differ from run to run (as in PyTorch's CUDA backend).
#include <cuda_runtime.h>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

template <class T> __device__ void atomic_add(T* p, T v) { atomicAdd(p, v); }
// bool: adding is OR (as on the CPU), and there is no atomicAdd on a byte. Every thread that
// writes stores the same value, true, so the order of the stores cannot change the result.
template <> __device__ void atomic_add(bool* p, bool v) {
  if (v) *p = true;
}
template <> __device__ void atomic_add(int64_t* p, int64_t v) {
  // two's complement: adding as unsigned gives the signed sum's bits
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

// The coordinate along dim of flat element e over a shape whose dims after dim hold `inner`
// elements and dim holds `size`.
__device__ inline int64_t coord(int64_t e, int64_t inner, int64_t size) {
  return (e / inner) % size;
}

// out.select(dim, c) = in.select(dim, index[c]); ix walks out with in's dim stride zeroed.
template <class T>
__global__ void index_select_kernel(Indexer<2> ix, int64_t n, int64_t inner, int64_t size,
                                    int64_t in_step, int64_t istep, T* out, const T* in,
                                    const int64_t* index) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    ix.offsets(e, off);
    out[off[0]] = in[off[1] + index[coord(e, inner, size) * istep] * in_step];
  }
}

// out.select(dim, index[c]) += src.select(dim, c); ix walks src with out's dim stride zeroed.
template <class T>
__global__ void index_add_kernel(Indexer<2> ix, int64_t n, int64_t inner, int64_t size,
                                 int64_t out_step, int64_t istep, T* out, const T* src,
                                 const int64_t* index) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    ix.offsets(e, off);
    atomic_add(out + off[0] + index[coord(e, inner, size) * istep] * out_step, src[off[1]]);
  }
}

// Walks index's shape; ix gives (out, index, in with dim stride zeroed) offsets:
// out[p] = in[p with dim replaced by index[p]].
template <class T>
__global__ void gather_kernel(Indexer<3> ix, int64_t n, int64_t step, T* out, const T* in,
                              const int64_t* index) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    ix.offsets(e, off);
    out[off[0]] = in[off[2] + index[off[1]] * step];
  }
}

// The transpose of gather: out[p with dim replaced by index[p]] += src[p].
template <class T>
__global__ void scatter_add_kernel(Indexer<3> ix, int64_t n, int64_t step, T* out,
                                   const T* src, const int64_t* index) {
  for (int64_t e = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; e < n;
       e += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    ix.offsets(e, off);
    atomic_add(out + off[0] + index[off[1]] * step, src[off[2]]);
  }
}

// Elements after dim in shape.
int64_t inner_of(const std::vector<int64_t>& shape, int64_t dim) {
  int64_t inner = 1;
  for (size_t d = size_t(dim) + 1; d < shape.size(); ++d) inner *= shape[d];
  return inner;
}

int64_t index_step(const KTensor& index) { return index.strides.empty() ? 1 : index.strides[0]; }

}  // namespace

void CudaBackend::index_select(const KTensor& out, const KTensor& in, int64_t dim,
                               const KTensor& index) {
  const int64_t n = out.numel();
  if (n == 0) return;
  std::vector<int64_t> in_strides = in.strides;
  in_strides[size_t(dim)] = 0;
  const auto ix = make_indexer<2>("index_select", out.shape, {&out.strides, &in_strides});
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    index_select_kernel<T><<<blocks_for(n), kThreads>>>(
        ix, n, inner_of(out.shape, dim), out.shape[size_t(dim)], in.strides[size_t(dim)],
        index_step(index), out.ptr<T>(), in.ptr<T>(), index.ptr<int64_t>());
  });
  check_launch("index_select_kernel");
}

void CudaBackend::index_add(const KTensor& out, int64_t dim, const KTensor& index,
                            const KTensor& src) {
  const int64_t n = src.numel();
  if (n == 0) return;
  std::vector<int64_t> out_strides = out.strides;
  out_strides[size_t(dim)] = 0;
  const auto ix = make_indexer<2>("index_add", src.shape, {&out_strides, &src.strides});
  dispatch_dtype(out.dtype, [&](auto z) {
    using T = decltype(z);
    index_add_kernel<T><<<blocks_for(n), kThreads>>>(
        ix, n, inner_of(src.shape, dim), src.shape[size_t(dim)], out.strides[size_t(dim)],
        index_step(index), out.ptr<T>(), src.ptr<T>(), index.ptr<int64_t>());
  });
  check_launch("index_add_kernel");
}

void CudaBackend::gather(const KTensor& out, const KTensor& in, int64_t dim,
                         const KTensor& index) {
  const int64_t n = index.numel();
  if (n == 0) return;
  std::vector<int64_t> in_strides = in.strides;
  in_strides[size_t(dim)] = 0;
  const auto ix = make_indexer<3>("gather", index.shape,
                                  {&out.strides, &index.strides, &in_strides});
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    gather_kernel<T><<<blocks_for(n), kThreads>>>(ix, n, in.strides[size_t(dim)], out.ptr<T>(),
                                                  in.ptr<T>(), index.ptr<int64_t>());
  });
  check_launch("gather_kernel");
}

void CudaBackend::scatter_add(const KTensor& out, int64_t dim, const KTensor& index,
                              const KTensor& src) {
  const int64_t n = index.numel();
  if (n == 0) return;
  std::vector<int64_t> out_strides = out.strides;
  out_strides[size_t(dim)] = 0;
  const auto ix = make_indexer<3>("scatter_add", index.shape,
                                  {&out_strides, &index.strides, &src.strides});
  dispatch_dtype(out.dtype, [&](auto z) {
    using T = decltype(z);
    scatter_add_kernel<T><<<blocks_for(n), kThreads>>>(ix, n, out.strides[size_t(dim)],
                                                       out.ptr<T>(), src.ptr<T>(),
                                                       index.ptr<int64_t>());
  });
  check_launch("scatter_add_kernel");
}

}  // namespace attic::cuda
