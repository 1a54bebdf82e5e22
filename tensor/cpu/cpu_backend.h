// The CPU backend. Its kernels are spread over tensor/cpu/*.cpp, one family per file, as
// methods of Kernels (kernels.h), compiled once per instruction-set level (cpu_isa.h):
//   cpu_backend.cpp  memory (a caching allocator), host copies, backend_for() and the choice of
//                    level; cpu::gemm and cpu::dropout_span, which forward to that level
//   kernels.cpp      a level's name and backend object
//   elementwise.cpp  fill, copy, unary, binary, where
//   reduce.cpp       reduce, arg_reduce, sum_squares, cumsum
//   scan.cpp         decayed_cumsum, running_max (scan.h: their naive references)
//   routed_sum.cpp   route attention's sum over sources and its backward (routed_sum.h: the
//                    naive reference)
//   prefix_softmax.cpp  ELiTA's prefix softmax and its backward, one scan each way
//                    (prefix_softmax.h: the naive reference)
//   matmul.cpp       matmul (through gemm.cpp), matmul_reduced (through gemm_bf16.h)
//   softmax.cpp      softmax, log_softmax, tril
//   layer_norm.cpp   layer_norm and its backward
//   attention.cpp    fused scaled dot-product attention and its backward
//   dropout.cpp      dropout, its mask drawn from Philox by element index
//   index.cpp        index_select, index_add, gather, scatter_add
//   adam.cpp         the fused Adam / AdamW step
#pragma once

#include "tensor/backend.h"
#include "tensor/cpu/gemm_call.h"

namespace attic::cpu {

// The allocator keeps freed blocks, by size class, for reuse, up to a limit: by default
// (kCacheLimitAuto) the most bytes of storage ever alive at once, and at least 64 MiB. These look at and manage
// that cache. All are thread-safe.
inline constexpr size_t kCacheLimitAuto = ~size_t(0);
bool caching_allocator();            // false in AddressSanitizer builds: nothing is cached
size_t cached_bytes();               // bytes held in freed blocks
void set_cache_limit(size_t nbytes); // frees cached blocks beyond nbytes, and keeps below it
size_t cache_limit();                // the limit in bytes now (auto: the high-water mark)
void empty_cache();                  // gives every cached block back to the system
// Bytes of tensor storage alive now, and the most alive at once since the last
// reset_peak_bytes() (what tensors asked for, whether or not the cache served it).
size_t live_bytes();
size_t peak_bytes();
void reset_peak_bytes();            // peak := live

// The CPU backend's memory and host copies (cpu_backend.cpp), which every instruction-set
// level shares; its kernels are a subclass, Kernels (tensor/cpu/kernels.h), compiled once per
// level (tensor/cpu/cpu_isa.h). backend_for(Device::CPU) is the Kernels of cpu_level().
class CpuBackend : public Backend {
 public:
  Device device() const override { return Device::CPU; }
  void* allocate(size_t nbytes) override;
  void deallocate(void* ptr, size_t nbytes) noexcept override;
  void copy_from_host(void* dst, const void* src, size_t nbytes) override;
  void copy_to_host(void* dst, const void* src, size_t nbytes) override;

  bool fused_dropout() const override { return true; }
  bool fused_routed_sum() const override { return true; }
  bool fused_prefix_softmax() const override { return true; }

  // The level this object's kernels were compiled for: "native" (a native build's one level),
  // or in a portable build "base", "avx2" or "avx512".
  virtual const char* isa() const = 0;

  // The raw-pointer kernels that code outside the backend calls, at this object's level:
  // cpu::gemm<T> (gemm.h) and cpu::dropout_span<T> (dropout.h) forward here.
  virtual void run_gemm(int64_t M, int64_t N, int64_t K, const float* A, int64_t rsa,
                        int64_t csa, const float* B, int64_t rsb, int64_t csb, float* C,
                        int64_t ldc, Triangle tri, bool accumulate) = 0;
  virtual void run_gemm(int64_t M, int64_t N, int64_t K, const double* A, int64_t rsa,
                        int64_t csa, const double* B, int64_t rsb, int64_t csb, double* C,
                        int64_t ldc, Triangle tri, bool accumulate) = 0;
  virtual void run_dropout_span(float* out, const float* in, int64_t n, uint64_t first,
                                uint64_t key, uint32_t threshold, float scale) = 0;
  virtual void run_dropout_span(double* out, const double* in, int64_t n, uint64_t first,
                                uint64_t key, uint32_t threshold, double scale) = 0;
};

// The CPU backend this process runs, made on first use: the Kernels of the level cpu_level()
// chose (the one level there is, in a native build). backend_for(Device::CPU) returns it.
CpuBackend& cpu_backend();

}  // namespace attic::cpu
