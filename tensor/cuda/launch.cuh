// What every kernel file shares: launch sizes, and the Indexer that maps a flat element
// number to the memory offset of each operand (shape and strides copied into the kernel's
// arguments, so a kernel handles broadcasts and views the way tensor/cpu/strided.h does).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cuda/check.h"

namespace attic::cuda {

constexpr int kThreads = 256;   // threads per block for elementwise kernels
constexpr int kMaxDims = 8;     // the most dims a kernel's Indexer carries

// Blocks for n elements at kThreads each. Capped: kernels loop with a grid stride
// (i += gridDim.x * blockDim.x), so a capped grid still covers every element.
inline int blocks_for(int64_t n) {
  return int(std::min<int64_t>((n + kThreads - 1) / kThreads, int64_t(1) << 16));
}

// Element i (row-major over shape) of N operands: offset[k] = Σ_d index_d(i) · strides[k][d].
template <int N>
struct Indexer {
  int nd = 0;
  bool contiguous = true;  // every operand row-major over shape: offset = i
  int64_t shape[kMaxDims] = {};
  int64_t strides[N][kMaxDims] = {};

  __device__ void offsets(int64_t i, int64_t (&off)[N]) const {
    for (int k = 0; k < N; ++k) off[k] = contiguous ? i : 0;
    if (contiguous) return;
    for (int d = nd - 1; d >= 0; --d) {
      const int64_t idx = i % shape[d];
      i /= shape[d];
      for (int k = 0; k < N; ++k) off[k] += idx * strides[k][d];
    }
  }
};

// True when strides are row-major over shape (size-1 dims may have any stride).
inline bool row_major(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  int64_t expected = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    if (shape[size_t(d)] == 1) continue;
    if (strides[size_t(d)] != expected) return false;
    expected *= shape[size_t(d)];
  }
  return true;
}

// The strides of a row-major (contiguous) tensor of this shape, in elements: the last dim
// steps by 1, each dim before it by the size of everything after it.
inline std::vector<int64_t> row_major_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t acc = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    s[size_t(d)] = acc;
    acc *= shape[size_t(d)];
  }
  return s;
}

template <int N>
Indexer<N> make_indexer(const char* op, const std::vector<int64_t>& shape,
                        const std::array<const std::vector<int64_t>*, N>& strides) {
  ATTIC_CHECK(shape.size() <= size_t(kMaxDims), op, ": the CUDA backend handles at most ",
              kMaxDims, " dims, got a tensor of shape ", str(shape));
  Indexer<N> ix;
  ix.nd = int(shape.size());
  for (int d = 0; d < ix.nd; ++d) ix.shape[d] = shape[size_t(d)];
  for (int k = 0; k < N; ++k) {
    for (int d = 0; d < ix.nd; ++d) ix.strides[k][d] = (*strides[size_t(k)])[size_t(d)];
    ix.contiguous = ix.contiguous && row_major(shape, *strides[size_t(k)]);
  }
  return ix;
}

// x != x holds only for NaN; for int64 it is never true.
template <class T> __device__ inline bool is_nan(T v) { return v != v; }
// NaN of T; int64 has none (and never meets one), so 0 stands in.
template <class T> __device__ inline T nan_of() { return T(NAN); }
template <> __device__ inline int64_t nan_of<int64_t>() { return 0; }
template <> __device__ inline bool nan_of<bool>() { return false; }

}  // namespace attic::cuda

namespace attic::cuda {

constexpr int kReduceThreads = 256;  // threads per block in block reductions (a power of 2)

// Tree reduction over the block's kReduceThreads threads: each step halves the active
// threads, each adding (or max-ing) its partner's value; log2(256) = 8 steps. Every thread
// gets the result. All threads of the block must call it.
template <class T, class F>
__device__ T block_reduce(T v, F f) {
  __shared__ T buf[kReduceThreads];
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int s = kReduceThreads / 2; s > 0; s >>= 1) {
    if (int(threadIdx.x) < s) buf[threadIdx.x] = f(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  const T r = buf[0];
  __syncthreads();  // buf is reused by the next call
  return r;
}

struct SumOp {
  template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct MaxOp {
  template <class T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
struct MinOp {
  template <class T> __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

// Sums of float32 accumulate in double, as on the CPU: summing a million floats in float
// loses about 3 digits.
template <class T> struct Acc { using type = T; };
template <> struct Acc<float> { using type = double; };
template <> struct Acc<bool> { using type = int64_t; };  // a sum of bools counts them

}  // namespace attic::cuda
