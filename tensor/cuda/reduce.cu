// Reduction CUDA kernels: sum / max / min over a set of dims, max / min with indices along
// one dim, the sum of squares (for clip_grad_norm_), and the inclusive prefix sum.
#include <cuda_runtime.h>

#include <limits>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

// One block per output element: its threads stride over the reduced sub-block of in
// (offsets from `red`), then combine their partial results with block_reduce.
// kept maps an output element to (out offset, in offset of its sub-block's first element).
template <class T>
__global__ void reduce_kernel(Indexer<2> kept, Indexer<1> red, int64_t nout, int64_t nred,
                              ReduceOp op, typename Acc<T>::type init, T* out, const T* in) {
  using A = typename Acc<T>::type;
  for (int64_t o = blockIdx.x; o < nout; o += gridDim.x) {
    int64_t off[2];
    kept.offsets(o, off);
    A acc = init;
    int nan = 0;
    for (int64_t r = threadIdx.x; r < nred; r += blockDim.x) {
      int64_t roff[1];
      red.offsets(r, roff);
      const T v = in[off[1] + roff[0]];
      if (op == ReduceOp::Sum) acc += A(v);
      else if (is_nan(v)) nan = 1;
      else acc = op == ReduceOp::Max ? MaxOp()(acc, A(v)) : MinOp()(acc, A(v));
    }
    // max and min propagate NaN, as on the CPU
    nan = block_reduce(nan, MaxOp());
    if (op == ReduceOp::Sum) acc = block_reduce(acc, SumOp());
    else if (op == ReduceOp::Max) acc = block_reduce(acc, MaxOp());
    else acc = block_reduce(acc, MinOp());
    if (threadIdx.x == 0) out[off[0]] = nan ? nan_of<T>() : T(acc);
  }
}

// One thread per output element walks its line of n elements (step apart) in order: the
// first extreme wins ties and a NaN wins outright, exactly as the CPU loop.
template <class T>
__global__ void arg_reduce_kernel(Indexer<3> ix, int64_t nout, int64_t n, int64_t step,
                                  bool is_max, T* values, int64_t* indices, const T* in) {
  for (int64_t o = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; o < nout;
       o += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    ix.offsets(o, off);
    const T* line = in + off[2];
    int64_t best = 0;
    T best_v = line[0];
    for (int64_t i = 1; i < n && !is_nan(best_v); ++i) {
      const T c = line[i * step];
      if (is_nan(c) || (is_max ? c > best_v : c < best_v)) {
        best = i;
        best_v = c;
      }
    }
    values[off[0]] = best_v;
    indices[off[1]] = best;
  }
}

// Stage 1 of Σ x²: block b sums the squares of elements b, b + gridDim.x·blockDim.x, ...
// (through the Indexer, so any strides), in double, into partial[b].
template <class T>
__global__ void sum_squares_partial(Indexer<1> ix, int64_t n, double* partial, const T* in) {
  double acc = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[1];
    ix.offsets(i, off);
    const double x = double(in[off[0]]);
    acc += x * x;
  }
  acc = block_reduce(acc, SumOp());
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
}

// Stage 2: one block adds the partial sums into partial[0]. Two fixed stages rather than an
// atomicAdd per block: the order of the additions, and so the rounding, is the same every run.
__global__ void sum_squares_final(int nparts, double* partial) {
  double acc = 0;
  for (int i = int(threadIdx.x); i < nparts; i += int(blockDim.x)) acc += partial[i];
  acc = block_reduce(acc, SumOp());
  if (threadIdx.x == 0) partial[0] = acc;
}

// One thread per line along dim, adding in order (a sequential scan: the lines are many
// and short in attic's uses, and the order matches the CPU's rounding).
template <class T>
__global__ void cumsum_kernel(Indexer<2> ix, int64_t nlines, int64_t n, int64_t so,
                              int64_t si, T* out, const T* in) {
  using A = typename Acc<T>::type;
  for (int64_t l = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; l < nlines;
       l += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    ix.offsets(l, off);
    A acc = 0;
    for (int64_t i = 0; i < n; ++i) {
      acc += A(in[off[1] + i * si]);
      out[off[0] + i * so] = T(acc);
    }
  }
}

// The decayed prefix sum, one thread per line along dim as cumsum_kernel:
//   out_t = in_t + r_t out_{t−1}  (reverse: out_t = in_t + r_{t+1} out_{t+1}).
template <class T>
__global__ void decayed_cumsum_kernel(Indexer<3> ix, int64_t nlines, int64_t n, int64_t so,
                                      int64_t si, int64_t sr, bool reverse, T* out,
                                      const T* in, const T* r) {
  for (int64_t l = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; l < nlines;
       l += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    ix.offsets(l, off);
    T acc = 0;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t t = reverse ? n - 1 - k : k;
      const T decay = k == 0 ? T(0) : r[off[2] + (reverse ? t + 1 : t) * sr];
      acc = in[off[1] + t * si] + decay * acc;
      out[off[0] + t * so] = acc;
    }
  }
}

// The running maximum, one thread per line along dim as cumsum_kernel:
//   out_0 = in_0, out_t = max(out_{t−1}, in_t); from the first NaN on, NaN (m != m only
//   for a NaN, and a NaN compares false, so m stays NaN).
template <class T>
__global__ void running_max_kernel(Indexer<2> ix, int64_t nlines, int64_t n, int64_t so,
                                   int64_t si, T* out, const T* in) {
  for (int64_t l = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; l < nlines;
       l += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    ix.offsets(l, off);
    T m = in[off[1]];
    out[off[0]] = m;
    for (int64_t t = 1; t < n; ++t) {
      const T v = in[off[1] + t * si];
      if (m == m && (v > m || v != v)) m = v;
      out[off[0] + t * so] = m;
    }
  }
}

// The lines along dim, one thread each: in's shape with dim at 1, and how many there are.
std::vector<int64_t> lines_along(const KTensor& in, int64_t dim, int64_t& nlines) {
  std::vector<int64_t> lines = in.shape;
  lines[size_t(dim)] = 1;
  nlines = 1;
  for (int64_t s : lines) nlines *= s;
  return lines;
}

}  // namespace

// out has in's rank with size 1 on every reduced dim.
void CudaBackend::reduce(ReduceOp op, const KTensor& out, const KTensor& in) {
  const int64_t nout = out.numel();
  if (nout == 0) return;
  std::vector<int64_t> kept_strides = in.strides, red_shape, red_strides;
  for (size_t d = 0; d < in.shape.size(); ++d)
    if (out.shape[d] == 1 && in.shape[d] != 1) {
      red_shape.push_back(in.shape[d]);
      red_strides.push_back(in.strides[d]);
      kept_strides[d] = 0;
    }
  int64_t nred = 1;
  for (int64_t s : red_shape) nred *= s;
  const auto kept = make_indexer<2>("reduce", out.shape, {&out.strides, &kept_strides});
  const auto red = make_indexer<1>("reduce", red_shape, {&red_strides});
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    using A = typename Acc<T>::type;
    const A init = op == ReduceOp::Sum   ? A(0)
                   : op == ReduceOp::Max ? A(std::numeric_limits<T>::lowest())
                                         : A(std::numeric_limits<T>::max());
    const int grid = int(std::min<int64_t>(nout, 65535));
    reduce_kernel<T><<<grid, kReduceThreads>>>(kept, red, nout, nred, op, init, out.ptr<T>(),
                                               in.ptr<T>());
  });
  check_launch("reduce_kernel");
}

void CudaBackend::arg_reduce(ReduceOp op, const KTensor& values, const KTensor& indices,
                             const KTensor& in, int64_t dim) {
  const int64_t nout = values.numel();
  if (nout == 0) return;
  const int64_t n = in.shape[size_t(dim)], step = in.strides[size_t(dim)];
  std::vector<int64_t> in_strides = in.strides;
  in_strides[size_t(dim)] = 0;
  const auto ix = make_indexer<3>("arg_reduce", values.shape,
                                  {&values.strides, &indices.strides, &in_strides});
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    arg_reduce_kernel<T><<<blocks_for(nout), kThreads>>>(ix, nout, n, step, op == ReduceOp::Max,
                                                         values.ptr<T>(), indices.ptr<int64_t>(),
                                                         in.ptr<T>());
  });
  check_launch("arg_reduce_kernel");
}

// in [*] (any strides) -> Σ in², accumulated in double; the one double comes back to the host.
double CudaBackend::sum_squares(const KTensor& in) {
  const int64_t n = in.numel();
  if (n == 0) return 0;
  const auto ix = make_indexer<1>("sum_squares", in.shape, {&in.strides});
  const int nparts = int(std::min<int64_t>(blocks_for(n), 1024));
  const size_t nbytes = size_t(nparts) * sizeof(double);
  auto* partial = static_cast<double*>(allocate(nbytes));
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    sum_squares_partial<T><<<nparts, kReduceThreads>>>(ix, n, partial, in.ptr<T>());
  });
  check_launch("sum_squares_partial");
  sum_squares_final<<<1, kReduceThreads>>>(nparts, partial);
  check_launch("sum_squares_final");
  double total = 0;
  copy_to_host(&total, partial, sizeof(double));  // waits for both kernels
  deallocate(partial, nbytes);
  return total;
}

void CudaBackend::cumsum(const KTensor& out, const KTensor& in, int64_t dim) {
  if (in.numel() == 0) return;
  const int64_t n = in.shape[size_t(dim)];
  int64_t nlines = 0;
  const std::vector<int64_t> lines = lines_along(in, dim, nlines);
  const auto ix = make_indexer<2>("cumsum", lines, {&out.strides, &in.strides});
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    cumsum_kernel<T><<<blocks_for(nlines), kThreads>>>(ix, nlines, n, out.strides[size_t(dim)],
                                                       in.strides[size_t(dim)], out.ptr<T>(),
                                                       in.ptr<T>());
  });
  check_launch("cumsum_kernel");
}

void CudaBackend::decayed_cumsum(const KTensor& out, const KTensor& in, const KTensor& r,
                                 int64_t dim, bool reverse) {
  if (in.numel() == 0) return;
  const int64_t n = in.shape[size_t(dim)];
  int64_t nlines = 0;
  const std::vector<int64_t> lines = lines_along(in, dim, nlines);
  const auto ix =
      make_indexer<3>("decayed_cumsum", lines, {&out.strides, &in.strides, &r.strides});
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    decayed_cumsum_kernel<T><<<blocks_for(nlines), kThreads>>>(
        ix, nlines, n, out.strides[size_t(dim)], in.strides[size_t(dim)], r.strides[size_t(dim)],
        reverse, out.ptr<T>(), in.ptr<T>(), r.ptr<T>());
  });
  check_launch("decayed_cumsum_kernel");
}

void CudaBackend::running_max(const KTensor& out, const KTensor& in, int64_t dim) {
  if (in.numel() == 0) return;
  const int64_t n = in.shape[size_t(dim)];
  int64_t nlines = 0;
  const std::vector<int64_t> lines = lines_along(in, dim, nlines);
  const auto ix = make_indexer<2>("running_max", lines, {&out.strides, &in.strides});
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    running_max_kernel<T><<<blocks_for(nlines), kThreads>>>(
        ix, nlines, n, out.strides[size_t(dim)], in.strides[size_t(dim)], out.ptr<T>(), in.ptr<T>());
  });
  check_launch("running_max_kernel");
}

}  // namespace attic::cuda
