// The instruction-set level a CPU kernel file is compiled for, as the name of the namespace
// its code lives in: attic::cpu::ATTIC_CPU_ISA.
//
// A native build (ATTIC_NATIVE=ON, -march=native) compiles the kernels once, for the machine
// that builds them, and every file's namespace is attic::cpu::base. A portable build on
// x86-64 (ATTIC_NATIVE=OFF: a distribution's package, a downloaded binary) compiles each
// kernel file three times, as PyTorch's CPU_CAPABILITY dispatch and oneDNN do:
//   base     the build's own target (x86-64: SSE2)
//   avx2     -march=x86-64-v3: AVX2, FMA, F16C, BMI1/2, LZCNT, MOVBE
//   avx512   -march=x86-64-v4: and AVX-512 F, BW, CD, DQ, VL
// and CMake defines ATTIC_CPU_ISA to the level's name for each copy. Every function, class
// and inline helper of the kernels is inside that namespace, so the three copies of one
// kernel (gemm, say) are three functions with three names: a copy built for AVX-512 is never
// merged, at link time, with one another level calls. backend_for() then picks one copy's
// Kernels class (tensor/cpu/kernels.h) from the CPU's features (tensor/cpu/cpu_features.h).
// scripts/check_cpu_levels.sh checks what the namespaces cannot: that no function the copies
// share (an inline function of a header outside them, a template of the standard library)
// was compiled with an instruction above the base level.
#pragma once

#ifndef ATTIC_CPU_ISA
#define ATTIC_CPU_ISA base
#endif

// Code compiled outside the kernel files (a test, an example) reaches the inline helpers of
// its own level by their plain names: attic::cpu::erf_f32, attic::cpu::gemm_detail::kMR.
namespace attic::cpu {
namespace ATTIC_CPU_ISA {}
using namespace ATTIC_CPU_ISA;
}  // namespace attic::cpu
