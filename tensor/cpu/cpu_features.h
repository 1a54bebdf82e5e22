// What this CPU can execute, read once at start-up, and the instruction-set level the kernels
// chosen at run time may use (ATTIC_CPU_CAPABILITY lowers it, for tests and comparisons).
//
// The levels, lowest first, each including the ones before it:
//   baseline      what the build targets and nothing more
//   avx2          x86-64-v3: AVX2, FMA, F16C, BMI1/2, LZCNT, MOVBE
//   avx512        x86-64-v4: and AVX-512 F, BW, CD, DQ, VL
//   avx512_bf16   and AVX512_BF16 (vdpbf16ps: two bf16 products summed into a float32 lane)
//   amx_bf16      and AMX's tiles for bf16 (tdpbf16ps: a 16 x 16 float32 tile += a 16 x 32
//                 bf16 tile times a 32 x 16 one), which Linux lends a process only when it
//                 asks (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA))
// A level needs both the instructions (cpuid) and the operating system's saving of their
// registers (xgetbv's XCR0), as PyTorch's cpuinfo and oneDNN check; amx_bf16 also needs
// Linux's grant of the tile state, which detecting the level asks for once. On other architectures
// the level is baseline; on AArch64 the bf16 GEMM also asks for Armv8.6's BF16 instructions
// (cpu_neon_bf16).
// The level picks the bf16 GEMM's path (gemm_bf16.h) and, in a portable build, which copy
// of the float kernels runs (cpu_isa.h); a native build has one copy, for the machine that
// built it.
#pragma once

#include <string>

namespace attic::cpu {

enum class CpuLevel { Baseline, Avx2, Avx512, Avx512Bf16, AmxBf16 };

const char* cpu_level_name(CpuLevel level);

// The highest level this CPU and operating system support.
CpuLevel cpu_level_supported();

// The level run-time dispatch uses: the supported one, or ATTIC_CPU_CAPABILITY's when that
// is lower. A value that names no level, or one this CPU lacks, is an attic::Error naming
// the variable, the value and the levels there are, thrown by the first kernel that asks.
CpuLevel cpu_level();

// Whether the CPU reports AMX tiles for bf16 (amx_bf16 and amx_tile), whether or not the
// operating system lets this process use them (the amx_bf16 level says it does).
bool cpu_has_amx_bf16();

// Whether the bf16 GEMM may use AArch64's BF16 instructions (BFDOT: two bf16 products summed
// into a float32 lane, FEAT_BF16 of Armv8.6, which Linux reports as HWCAP2_BF16): the CPU has
// them and ATTIC_CPU_CAPABILITY is unset (on AArch64 its one level, baseline, turns them off,
// so that tests and comparisons can take the convert path). Always false elsewhere.
bool cpu_neon_bf16();

// "avx512_bf16 (of avx512_bf16)", or "avx2 (of avx512_bf16, lowered by ATTIC_CPU_CAPABILITY)":
// the level used and the level supported, as benchmarks name them.
std::string cpu_level_summary();

}  // namespace attic::cpu
