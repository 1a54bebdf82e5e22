// Reduced-precision GEMM on the CPU: C[M, N] (+)= A[M, K] @ B[K, N] with each element of A and
// B rounded to bfloat16 (round to nearest even) and the products summed in float32, which is
// what autocast's matrix products compute (PyTorch's torch.autocast("cpu", torch.bfloat16)
// runs its linear layers the same way, through oneDNN).
//
// A and B are float32 (rounded as they are read) or already bfloat16, read through (row
// stride, column stride) pairs as gemm() reads them; C is float32, row-major, leading
// dimension ldc.
#pragma once

#include <cstdint>

#include "tensor/cpu/gemm_call.h"
#include "tensor/half.h"

namespace attic::cpu {

// The ways the product can run; bf16_gemm_path() picks the best this CPU has.
enum class Bf16Path {
  Convert,     // round to bfloat16, widen back to float32, and run the float32 gemm()
  Avx512Bf16,  // packed bf16 pairs and vdpbf16ps micro-kernels (AVX512_BF16)
  Amx,         // the same packing, multiplied as tiles by tdpbf16ps (AMX_BF16)
  NeonBf16,    // the same packing and BFDOT micro-kernels (AArch64, Armv8.6's BF16)
};

const char* bf16_path_name(Bf16Path path);
// Whether this CPU (at cpu_level(), tensor/cpu/cpu_features.h) can run path.
bool bf16_path_available(Bf16Path path);
// The fastest available path: Amx at the amx_bf16 level, Avx512Bf16 at avx512_bf16,
// NeonBf16 where cpu_neon_bf16(), else Convert.
Bf16Path bf16_gemm_path();

// The reference: three loops, each operand rounded as it is read, the sum over k in order.
template <class TA, class TB>
void gemm_bf16_naive(int64_t M, int64_t N, int64_t K, const TA* A, int64_t rsa, int64_t csa,
                     const TB* B, int64_t rsb, int64_t csb, float* C, int64_t ldc);

// The fast one, multithreaded, on `path` (an unavailable path is an attic::Error). TA and TB
// are float or bfloat16. tri: a triangle that causal attention knows to be zero in A, or not
// to be wanted in C, as gemm() takes it (tensor/cpu/gemm_call.h), which may be skipped.
template <class TA, class TB>
void gemm_bf16(int64_t M, int64_t N, int64_t K, const TA* A, int64_t rsa, int64_t csa,
               const TB* B, int64_t rsb, int64_t csb, float* C, int64_t ldc,
               Triangle tri = Triangle::kNone, bool accumulate = false,
               Bf16Path path = bf16_gemm_path());

}  // namespace attic::cpu
