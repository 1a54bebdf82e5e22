// The CPU backend. Its kernels are spread over tensor/cpu/*.cpp, one family per file:
//   cpu_backend.cpp  memory (a caching allocator), host copies, backend_for()
//   elementwise.cpp  fill, copy, unary, binary, where
//   reduce.cpp       reduce, arg_reduce, sum_squares, cumsum
//   scan.cpp         decayed_cumsum (scan.h: its naive reference)
//   routed_sum.cpp   route attention's sum over sources and its backward (routed_sum.h: the
//                    naive reference)
//   prefix_softmax.cpp  ELiTA's prefix softmax and its backward, one scan each way
//                    (prefix_softmax.h: the naive reference)
//   matmul.cpp       matmul (through gemm.h), matmul_reduced (through gemm_bf16.h)
//   softmax.cpp      softmax, log_softmax, tril
//   layer_norm.cpp   layer_norm and its backward
//   attention.cpp    fused scaled dot-product attention and its backward
//   dropout.cpp      dropout, its mask drawn from Philox by element index
//   index.cpp        index_select, index_add, gather, scatter_add
//   adam.cpp         the fused Adam / AdamW step
#pragma once

#include "tensor/backend.h"

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

// A kernel's scratch buffer of n elements of T from the caching allocator, uninitialized,
// given back when it goes out of scope. A std::vector of the same size would zero it and,
// past glibc's mmap threshold, map fresh pages (and fault them in) on every call.
template <class T>
class Scratch {
 public:
  Scratch(Backend& be, size_t n) : be_(be), bytes_(n * sizeof(T)) {
    p_ = static_cast<T*>(be_.allocate(bytes_));
  }
  ~Scratch() { be_.deallocate(p_, bytes_); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  T* data() const { return p_; }

 private:
  Backend& be_;
  size_t bytes_;
  T* p_ = nullptr;
};

class CpuBackend final : public Backend {
 public:
  Device device() const override { return Device::CPU; }
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
                 uint64_t dropout_key) override;
  void attention_backward(const KTensor& dq, const KTensor& dk, const KTensor& dv,
                          const KTensor& dout, const KTensor& q, const KTensor& k,
                          const KTensor& v, const KTensor& att, double scale,
                          bool causal, double dropout_p, uint64_t dropout_key) override;
  void dropout(const KTensor& out, const KTensor& in, double p, uint64_t key) override;
  bool attention_recomputes(double weight_bytes) const override;
  bool fused_dropout() const override { return true; }
  bool fused_routed_sum() const override { return true; }
  void routed_sum(const KTensor& out, const KTensor& w, const std::vector<KTensor>& src) override;
  void routed_sum_backward(const std::vector<KTensor>& dsrc, const KTensor& dw, const KTensor& g,
                           const KTensor& w, const std::vector<KTensor>& src) override;
  bool fused_prefix_softmax() const override { return true; }
  void prefix_softmax(const KTensor& y, const KTensor& m, const KTensor& a, const KTensor& b,
                      const KTensor& s, const KTensor& d, const KTensor& r,
                      const KTensor& v) override;
  void prefix_softmax_backward(const KTensor& ds, const KTensor& dd, const KTensor& dr,
                               const KTensor& dv, const KTensor& g, const KTensor& s,
                               const KTensor& v, const KTensor& y, const KTensor& m,
                               const KTensor& a, const KTensor& b) override;
  void tril(const KTensor& out, const KTensor& in, int64_t k, bool upper) override;

  void adam_step(const KTensor& p, const KTensor& g, const KTensor& m, const KTensor& v,
                 const AdamStep& step) override;
  void adam_steps(const std::vector<AdamSlot>& slots) override;

  void index_select(const KTensor& out, const KTensor& in, int64_t dim,
                    const KTensor& index) override;
  void index_add(const KTensor& out, int64_t dim, const KTensor& index,
                 const KTensor& src) override;
  void gather(const KTensor& out, const KTensor& in, int64_t dim, const KTensor& index) override;
  void scatter_add(const KTensor& out, int64_t dim, const KTensor& index,
                   const KTensor& src) override;
};

}  // namespace attic::cpu
