// Elementwise CUDA kernels: fill, copy (with dtype conversion), unary, binary, where.
// One thread per output element (grid-stride); the Indexer turns the element number into
// each operand's offset, so broadcast (stride 0) and transposed operands need no copies.
// The op is a kernel argument, not a template parameter: every thread of a launch takes
// the same switch branch, so it costs no divergence, and each file compiles a few kernels
// instead of one per (op, type) pair.
#include <cuda_runtime.h>

#include <type_traits>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"
#include "tensor/philox.h"

namespace attic::cuda {

namespace {

// σ(x) = 1 / (1 + e^-x), written so that exp never overflows: for x < 0, e^x / (1 + e^x).
template <class T> __device__ T sigmoid(T x) {
  if (x >= T(0)) return T(1) / (T(1) + exp(-x));
  const T e = exp(x);
  return e / (T(1) + e);
}

// The same formulas as tensor/cpu/elementwise.cpp, so the two backends agree to rounding.
template <class T> __device__ T apply_unary(UnaryOp op, T x, T p0, T p1) {
  const T sqrt1_2 = T(0.7071067811865476);   // 1/√2
  switch (op) {
    case UnaryOp::Neg: return -x;
    case UnaryOp::Exp: return exp(x);
    case UnaryOp::Log: return log(x);
    case UnaryOp::Sqrt: return sqrt(x);
    case UnaryOp::Rsqrt: return T(1) / sqrt(x);
    case UnaryOp::Abs: return fabs(x);
    case UnaryOp::Sign: return T((x > T(0)) - (x < T(0)));
    case UnaryOp::Tanh: return tanh(x);
    case UnaryOp::Sigmoid: return sigmoid(x);
    case UnaryOp::Relu: return x > T(0) ? x : T(0);
    case UnaryOp::GeluErf: return T(0.5) * x * (T(1) + erf(x * sqrt1_2));  // x Φ(x)
    case UnaryOp::GeluTanh: {  // 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))
      const T k = T(0.7978845608028654);
      return T(0.5) * x * (T(1) + tanh(k * (x + T(0.044715) * x * x * x)));
    }
    case UnaryOp::Silu: return x * sigmoid(x);
    case UnaryOp::Elu: return x > T(0) ? x : p0 * expm1(x);  // expm1: exact near 0
    case UnaryOp::Sin: return sin(x);
    case UnaryOp::Cos: return cos(x);
    case UnaryOp::Erf: return erf(x);
    case UnaryOp::Clamp: return x < p0 ? p0 : (x > p1 ? p1 : x);
    case UnaryOp::PowScalar: return pow(x, p0);
    case UnaryOp::Step: return x > T(0) ? T(1) : T(0);
  }
  return x;
}

// GeluErf's derivative Φ(x) + x φ(x), φ(x) = e^(-x²/2) / √(2π); BinaryOp::GeluErfBackward
// multiplies it into the incoming gradient in the same pass.
template <class T> __device__ T gelu_erf_grad(T x) {
  const T cdf = T(0.5) * (T(1) + erf(x * T(0.7071067811865476)));
  return cdf + x * T(0.3989422804014327) * exp(T(-0.5) * x * x);
}

template <class T> __device__ T power(T x, T y) { return pow(x, y); }
template <> __device__ int64_t power(int64_t x, int64_t y) {
  return int64_t(pow(double(x), double(y)));
}

// Arithmetic on bools as on the CPU (tensor/cpu/elementwise.cpp): + and max are OR, * and
// min are AND, x^y is x OR NOT y; the ops refuse the rest.
__device__ inline bool apply_bool(BinaryOp op, bool x, bool y) {
  switch (op) {
    case BinaryOp::Add: case BinaryOp::Maximum: return x || y;
    case BinaryOp::Mul: case BinaryOp::Minimum: return x && y;
    case BinaryOp::Pow: return x || !y;
    default: return x;
  }
}

template <class T> __device__ T apply_binary(BinaryOp op, T x, T y) {
  if constexpr (std::is_same_v<T, bool>) {
    return apply_bool(op, x, y);
  } else {
    switch (op) {
      case BinaryOp::Add: return x + y;
      case BinaryOp::Sub: return x - y;
      case BinaryOp::Mul: return x * y;
      case BinaryOp::Div: return x / y;
      case BinaryOp::Pow: return power(x, y);
      // NaN propagates through maximum and minimum, as in PyTorch
      case BinaryOp::Maximum: return (is_nan(x) || x > y) ? x : y;
      case BinaryOp::Minimum: return (is_nan(x) || x < y) ? x : y;
      case BinaryOp::GeluErfBackward:  // x = the gradient g, y = GeluErf's input
        if constexpr (std::is_floating_point_v<T>) return x * gelu_erf_grad(y);
        else return x;  // ops/activation.cpp only asks for it with floating dtypes
      default: return x;  // the comparisons run in compare_kernel
    }
  }
}

template <class T> __device__ bool apply_compare(BinaryOp op, T x, T y) {
  switch (op) {
    case BinaryOp::Gt: return x > y;
    case BinaryOp::Lt: return x < y;
    case BinaryOp::Ge: return x >= y;
    case BinaryOp::Le: return x <= y;
    case BinaryOp::Eq: return x == y;
    default: return x != y;  // Ne
  }
}

// out[i] = value
template <class T> __global__ void fill_kernel(Indexer<1> ix, int64_t n, T* out, T value) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[1];
    ix.offsets(i, off);
    out[off[0]] = value;
  }
}

// out[i] = O(in[i])
template <class O, class I>
__global__ void copy_kernel(Indexer<2> ix, int64_t n, O* out, const I* in) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    ix.offsets(i, off);
    out[off[0]] = value_cast<O>(in[off[1]]);
  }
}

// out[i] = op(in[i]; p0, p1)
template <class T>
__global__ void unary_kernel(Indexer<2> ix, int64_t n, UnaryOp op, T* out, const T* in, T p0,
                             T p1) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[2];
    ix.offsets(i, off);
    out[off[0]] = apply_unary(op, in[off[1]], p0, p1);
  }
}

// out[i] = a[i] op b[i]
template <class T>
__global__ void binary_kernel(Indexer<3> ix, int64_t n, BinaryOp op, T* out, const T* a,
                              const T* b) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    ix.offsets(i, off);
    out[off[0]] = apply_binary(op, a[off[1]], b[off[2]]);
  }
}

// out[i] = a[i] op b[i] as a bool: the comparisons
template <class T>
__global__ void compare_kernel(Indexer<3> ix, int64_t n, BinaryOp op, bool* out, const T* a,
                               const T* b) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[3];
    ix.offsets(i, off);
    out[off[0]] = apply_compare(op, a[off[1]], b[off[2]]);
  }
}

// out[i] = cond[i] != 0 ? a[i] : b[i]
template <class T, class C>
__global__ void where_kernel(Indexer<4> ix, int64_t n, T* out, const C* cond, const T* a,
                             const T* b) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    int64_t off[4];
    ix.offsets(i, off);
    out[off[0]] = cond[off[1]] != C(0) ? a[off[2]] : b[off[3]];
  }
}

// out[i] = in[i] · scale if Philox keeps element i, else 0 (tensor/philox.h): the same mask
// as the CPU's for the same key, since it depends on (key, i) alone.
template <class T>
__global__ void dropout_kernel(int64_t n, T* out, const T* in, uint64_t key, uint32_t threshold,
                               T scale) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x)
    out[i] = dropout_bits(key, uint64_t(i)) >= threshold ? in[i] * scale : T(0);
}

}  // namespace

void CudaBackend::fill(const KTensor& out, double value) {
  const int64_t n = out.numel();
  if (n == 0) return;
  const auto ix = make_indexer<1>("fill", out.shape, {&out.strides});
  dispatch_storage(out.dtype, [&](auto z) {
    using T = decltype(z);
    fill_kernel<T><<<blocks_for(n), kThreads>>>(ix, n, out.ptr<T>(), value_cast<T>(value));
  });
  check_launch("fill_kernel");
}

void CudaBackend::copy(const KTensor& out, const KTensor& in) {
  const int64_t n = out.numel();
  if (n == 0) return;
  const auto ix = make_indexer<2>("copy", out.shape, {&out.strides, &in.strides});
  dispatch_storage(out.dtype, [&](auto zo) {
    dispatch_storage(in.dtype, [&](auto zi) {
      using O = decltype(zo);
      using I = decltype(zi);
      copy_kernel<O, I><<<blocks_for(n), kThreads>>>(ix, n, out.ptr<O>(), in.ptr<I>());
    });
  });
  check_launch("copy_kernel");
}

void CudaBackend::unary(UnaryOp op, const KTensor& out, const KTensor& in, double p0,
                        double p1) {
  const int64_t n = out.numel();
  if (n == 0) return;
  const auto ix = make_indexer<2>("unary", out.shape, {&out.strides, &in.strides});
  dispatch_floating(out.dtype, [&](auto z) {
    using T = decltype(z);
    unary_kernel<T><<<blocks_for(n), kThreads>>>(ix, n, op, out.ptr<T>(), in.ptr<T>(), T(p0),
                                                 T(p1));
  });
  check_launch("unary_kernel");
}

void CudaBackend::binary(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) {
  const int64_t n = out.numel();
  if (n == 0) return;
  const auto ix = make_indexer<3>("binary", out.shape, {&out.strides, &a.strides, &b.strides});
  const bool comparison = op == BinaryOp::Gt || op == BinaryOp::Lt || op == BinaryOp::Ge ||
                          op == BinaryOp::Le || op == BinaryOp::Eq || op == BinaryOp::Ne;
  dispatch_dtype(a.dtype, [&](auto z) {
    using T = decltype(z);
    if (comparison)
      compare_kernel<T><<<blocks_for(n), kThreads>>>(ix, n, op, out.ptr<bool>(), a.ptr<T>(),
                                                     b.ptr<T>());
    else
      binary_kernel<T><<<blocks_for(n), kThreads>>>(ix, n, op, out.ptr<T>(), a.ptr<T>(),
                                                    b.ptr<T>());
  });
  check_launch(comparison ? "compare_kernel" : "binary_kernel");
}

void CudaBackend::where(const KTensor& out, const KTensor& cond, const KTensor& a,
                        const KTensor& b) {
  const int64_t n = out.numel();
  if (n == 0) return;
  const auto ix = make_indexer<4>("where", out.shape,
                                  {&out.strides, &cond.strides, &a.strides, &b.strides});
  dispatch_dtype(out.dtype, [&](auto z) {
    dispatch_dtype(cond.dtype, [&](auto zc) {
      using T = decltype(z);
      using C = decltype(zc);
      where_kernel<T, C><<<blocks_for(n), kThreads>>>(ix, n, out.ptr<T>(), cond.ptr<C>(),
                                                      a.ptr<T>(), b.ptr<T>());
    });
  });
  check_launch("where_kernel");
}

// out, in: contiguous, alike. out = in ⊙ m / (1 - p), m from Philox by element index.
void CudaBackend::dropout(const KTensor& out, const KTensor& in, double p, uint64_t key) {
  const int64_t n = in.numel();
  if (n == 0) return;
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    const T scale = p >= 1 ? T(0) : T(1.0 / (1.0 - p));
    dropout_kernel<T><<<blocks_for(n), kThreads>>>(n, out.ptr<T>(), in.ptr<T>(), key,
                                                   dropout_threshold(p), scale);
  });
  check_launch("dropout_kernel");
}

}  // namespace attic::cuda
