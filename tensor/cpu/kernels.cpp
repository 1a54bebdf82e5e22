// The level's name, its backend object, and the raw-pointer kernels that cpu::gemm and
// cpu::dropout_span (compiled once, in cpu_backend.cpp) forward to.
#include "tensor/cpu/kernels.h"

#include "tensor/cpu/dropout.h"

namespace attic::cpu::ATTIC_CPU_ISA {

// A native build names its one level "native" (CMake defines ATTIC_CPU_ISA_NAME for it);
// a portable one names the namespace.
#ifndef ATTIC_CPU_ISA_NAME
#define ATTIC_STRINGIFY_(x) #x
#define ATTIC_STRINGIFY(x) ATTIC_STRINGIFY_(x)
#define ATTIC_CPU_ISA_NAME ATTIC_STRINGIFY(ATTIC_CPU_ISA)
#endif
const char* Kernels::isa() const { return ATTIC_CPU_ISA_NAME; }

CpuBackend* make_kernels() { return new Kernels; }

void Kernels::run_gemm(int64_t M, int64_t N, int64_t K, const float* A, int64_t rsa, int64_t csa,
                       const float* B, int64_t rsb, int64_t csb, float* C, int64_t ldc,
                       Triangle tri, bool accumulate) {
  gemm<float>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
}
void Kernels::run_gemm(int64_t M, int64_t N, int64_t K, const double* A, int64_t rsa,
                       int64_t csa, const double* B, int64_t rsb, int64_t csb, double* C,
                       int64_t ldc, Triangle tri, bool accumulate) {
  gemm<double>(M, N, K, A, rsa, csa, B, rsb, csb, C, ldc, tri, accumulate);
}
void Kernels::run_dropout_span(float* out, const float* in, int64_t n, uint64_t first,
                               uint64_t key, uint32_t threshold, float scale) {
  dropout_span<float>(out, in, n, first, key, threshold, scale);
}
void Kernels::run_dropout_span(double* out, const double* in, int64_t n, uint64_t first,
                               uint64_t key, uint32_t threshold, double scale) {
  dropout_span<double>(out, in, n, first, key, threshold, scale);
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
