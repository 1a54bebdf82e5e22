// The CPU kernels at one instruction-set level (tensor/cpu/cpu_isa.h): the Backend's compute
// methods, defined over tensor/cpu/*.cpp one family per file (cpu_backend.h lists them), and
// the free functions those files share. Only the kernel files include this header; everything
// else reaches the kernels through backend_for(), cpu::gemm and cpu::dropout_span.
#pragma once

#include <cstdint>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/cpu_isa.h"
#include "tensor/cpu/gemm_call.h"

// A kernel file is compiled once per level, and a template of the standard library that it
// instantiates with plain types (std::fill<float*, float>, std::vector<double>'s fill
// constructor), where the compiler does not inline it, is a function the levels share: the
// linker keeps one copy, perhaps an AVX-512 one, for the whole program (cpu_isa.h). So the
// kernels write such loops out, and scripts/check_cpu_levels.sh, which a test runs on every
// portable build, names any shared function that uses an instruction above the baseline.
namespace attic::cpu::ATTIC_CPU_ISA {

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

class Kernels final : public CpuBackend {
 public:
  const char* isa() const override;
  void run_gemm(int64_t M, int64_t N, int64_t K, const float* A, int64_t rsa, int64_t csa,
                const float* B, int64_t rsb, int64_t csb, float* C, int64_t ldc, Triangle tri,
                bool accumulate) override;
  void run_gemm(int64_t M, int64_t N, int64_t K, const double* A, int64_t rsa, int64_t csa,
                const double* B, int64_t rsb, int64_t csb, double* C, int64_t ldc, Triangle tri,
                bool accumulate) override;
  void run_dropout_span(float* out, const float* in, int64_t n, uint64_t first, uint64_t key,
                        uint32_t threshold, float scale) override;
  void run_dropout_span(double* out, const double* in, int64_t n, uint64_t first, uint64_t key,
                        uint32_t threshold, double scale) override;

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
  void running_max(const KTensor& out, const KTensor& in, int64_t dim) override;
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
                 uint64_t dropout_key, DType compute) override;
  void attention_backward(const KTensor& dq, const KTensor& dk, const KTensor& dv,
                          const KTensor& dout, const KTensor& q, const KTensor& k,
                          const KTensor& v, const KTensor& att, double scale,
                          bool causal, double dropout_p, uint64_t dropout_key,
                          DType compute) override;
  void dropout(const KTensor& out, const KTensor& in, double p, uint64_t key) override;
  bool attention_recomputes(double weight_bytes) const override;
  bool attention_computes(DType compute) const override;
  void routed_sum(const KTensor& out, const KTensor& w, const std::vector<KTensor>& src) override;
  void routed_sum_backward(const std::vector<KTensor>& dsrc, const KTensor& dw, const KTensor& g,
                           const KTensor& w, const std::vector<KTensor>& src) override;
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

// This level's backend, made once by backend_for() (kernels.cpp).
CpuBackend* make_kernels();

// gemm.h's GEMM (gemm.cpp) and dropout.h's span (dropout.cpp) at this level.
template <class T>
void gemm(int64_t M, int64_t N, int64_t K, const T* A, int64_t rsa, int64_t csa, const T* B,
          int64_t rsb, int64_t csb, T* C, int64_t ldc, Triangle tri = Triangle::kNone,
          bool accumulate = false);
template <class T>
void dropout_span(T* out, const T* in, int64_t n, uint64_t first, uint64_t key, uint32_t threshold,
                  T scale);

}  // namespace attic::cpu::ATTIC_CPU_ISA
