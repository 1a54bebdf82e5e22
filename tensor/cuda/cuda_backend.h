// The CUDA backend. Like tensor/cpu/, its kernels are spread over one family per file:
//   cuda_backend.cpp  the device query, backend_for(), host <-> device copies
//   allocator.cpp     the caching device allocator (and its guard-byte debug mode)
//   elementwise.cu    fill, copy, unary, binary, where
//   reduce.cu         reduce, arg_reduce, sum_squares, cumsum, decayed_cumsum, running_max
//   matmul.cu         matmul through cuBLAS (strided batched), or the tiled kernel;
//                     gemm_strided_batched, the cuBLAS call that attention.cu shares
//   matmul_tiled.cu   the readable tiled shared-memory matmul kernel
//   softmax.cu        softmax, log_softmax, tril
//   layer_norm.cu     layer_norm and its backward
//   attention.cu      fused scaled dot-product attention and its backward
//   adam.cu           the fused Adam / AdamW step
//   index.cu          index_select, index_add, gather, scatter_add
// A new Backend virtual (a fused kernel) adds one .cu file here and one line below.
//
// Every kernel runs on the default stream, in the order the ops call them; a copy to the
// host (item(), to_vector()) waits for them. So the allocator may hand a freed block to the
// next op at once: anything still reading it was queued before and finishes first.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensor/backend.h"

namespace attic::cuda {

// ---- the caching allocator (allocator.cpp). cudaMalloc and cudaFree synchronize the whole
//      device and take tens of microseconds; a training step frees and allocates the same
//      sizes every iteration, so freed blocks are kept by size class for reuse.
struct AllocatorStats {
  size_t in_use_bytes = 0;   // bytes in live tensors' blocks (size classes, not requests)
  size_t cached_bytes = 0;   // bytes in freed blocks kept for reuse
  size_t peak_bytes = 0;     // the most in_use_bytes ever reached
  int64_t device_mallocs = 0;  // cudaMalloc calls so far
  int64_t cache_hits = 0;      // allocations served from the cache
};
AllocatorStats allocator_stats();
void reset_peak_bytes();  // peak_bytes := in_use_bytes
void empty_cache();  // cudaFree every cached block

// Guard mode (for tests): with guard_bytes > 0, every new block is allocated with that many
// canary bytes (0xA5) before and after it, and no block is cached. A kernel that writes past
// either end of a tensor changes a canary; guard_violations() checks every live block now
// and counts the damaged ones (freed blocks are checked when they are freed, and counted).
void set_guard_bytes(size_t n);  // a multiple of 256 keeps the blocks aligned; 0: off
int64_t guard_violations();

// Which kernel matmul uses: cuBLAS (the default), or matmul_tiled.cu's readable one.
enum class MatmulImpl { CuBlas, Tiled };
void set_matmul_impl(MatmulImpl impl);
MatmulImpl matmul_impl();

// The readable tiled kernel, for tests and the tutorial: C [batch, M, N] (contiguous) =
// A [batch, M, K] @ B [batch, K, N], both read through (batch, row, column) strides.
template <class T>
void matmul_tiled(int64_t batch, int64_t M, int64_t N, int64_t K, const T* A, int64_t bsa,
                  int64_t rsa, int64_t csa, const T* B, int64_t bsb, int64_t rsb, int64_t csb,
                  T* C);

// True when an R x C matrix with row / column strides (rs, cs) can go to cuBLAS as it is:
// one of its strides is 1 (row-major or column-major) and the other spans a whole column or row.
bool blas_fits(int64_t R, int64_t C, int64_t rs, int64_t cs);

// C(z) [M, N] = A(z) [M, K] @ B(z) [K, N] for z < batch, in one cuBLAS strided-batched call:
// A(z)(i, k) = A[z bsa + i rsa + k csa], likewise B; C(z)(i, j) = C[z bsc + i ldc + j].
// A and B must pass blas_fits, and K > 0 (with K = 0, C is all zeros: fill it instead).
template <class T>
void gemm_strided_batched(int64_t batch, int64_t M, int64_t N, int64_t K, const T* A,
                          int64_t bsa, int64_t rsa, int64_t csa, const T* B, int64_t bsb,
                          int64_t rsb, int64_t csb, T* C, int64_t bsc, int64_t ldc);

class CudaBackend final : public Backend {
 public:
  Device device() const override { return Device::CUDA; }
  void* allocate(size_t nbytes) override;
  void deallocate(void* ptr, size_t nbytes) noexcept override;
  void copy_from_host(void* dst, const void* src, size_t nbytes) override;
  void copy_to_host(void* dst, const void* src, size_t nbytes) override;

  void fill(const KTensor& out, double value) override;
  void copy(const KTensor& out, const KTensor& in) override;
  void unary(UnaryOp op, const KTensor& out, const KTensor& in, double p0, double p1) override;
  void binary(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) override;
  void where(const KTensor& out, const KTensor& cond, const KTensor& a, const KTensor& b) override;

  void reduce(ReduceOp op, const KTensor& out, const KTensor& in) override;
  void arg_reduce(ReduceOp op, const KTensor& values, const KTensor& indices, const KTensor& in,
                  int64_t dim) override;
  double sum_squares(const KTensor& in) override;
  void cumsum(const KTensor& out, const KTensor& in, int64_t dim) override;
  void decayed_cumsum(const KTensor& out, const KTensor& in, const KTensor& r, int64_t dim,
                      bool reverse) override;
  void running_max(const KTensor& out, const KTensor& in, int64_t dim) override;

  void matmul(const KTensor& out, const KTensor& a, const KTensor& b) override;
  void matmul_reduced(const KTensor& out, const KTensor& a, const KTensor& b,
                      DType compute) override;
  void softmax(const KTensor& out, const KTensor& in, bool log) override;
  void layer_norm(const KTensor& out, const KTensor& mean, const KTensor& rstd, const KTensor& x,
                  const KTensor& w, const KTensor& b, double eps) override;
  void layer_norm_backward(const KTensor& dx, const KTensor& dw, const KTensor& db,
                           const KTensor& dout, const KTensor& x, const KTensor& rstd,
                           const KTensor& w) override;
  void attention(const KTensor& out, const KTensor& att, const KTensor& q, const KTensor& k,
                 const KTensor& v, double scale, bool causal, double dropout_p,
                 uint64_t dropout_key, DType compute) override;
  void attention_backward(const KTensor& dq, const KTensor& dk, const KTensor& dv,
                          const KTensor& dout, const KTensor& q, const KTensor& k,
                          const KTensor& v, const KTensor& att, double scale,
                          bool causal, double dropout_p, uint64_t dropout_key,
                          DType compute) override;
  void dropout(const KTensor& out, const KTensor& in, double p, uint64_t key) override;
  void tril(const KTensor& out, const KTensor& in, int64_t k, bool upper) override;

  void adam_step(const KTensor& p, const KTensor& g, const KTensor& m, const KTensor& v,
                 const AdamStep& step) override;

  void index_select(const KTensor& out, const KTensor& in, int64_t dim,
                    const KTensor& index) override;
  void index_add(const KTensor& out, int64_t dim, const KTensor& index,
                 const KTensor& src) override;
  void gather(const KTensor& out, const KTensor& in, int64_t dim, const KTensor& index) override;
  void scatter_add(const KTensor& out, int64_t dim, const KTensor& index,
                   const KTensor& src) override;
};

}  // namespace attic::cuda
