#include "tensor/cpu/cpu_features.h"

#include <cstdlib>
#include <string>

#include "tensor/error.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif
#if defined(__x86_64__) && defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace attic::cpu {
namespace {

constexpr CpuLevel kLevels[] = {CpuLevel::Baseline, CpuLevel::Avx2, CpuLevel::Avx512,
                                CpuLevel::Avx512Bf16, CpuLevel::AmxBf16};

#if defined(__x86_64__) || defined(__i386__)
struct Cpuid {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

// cpuid leaf `leaf`, sub-leaf `sub`; all zero when the CPU has no such leaf.
Cpuid cpuid(unsigned leaf, unsigned sub) {
  Cpuid r;
  if (unsigned(__get_cpuid_max(leaf & 0x80000000u, nullptr)) < leaf) return r;  // clang: int, GCC: unsigned
  __cpuid_count(leaf, sub, r.a, r.b, r.c, r.d);
  return r;
}

// XCR0: the register state the operating system saves on a context switch.
unsigned long long xcr0() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

// Linux keeps AMX's 8 KiB of tile data out of a thread's saved state until the process asks
// for it (Documentation/arch/x86/xstate.rst): XFEATURE_XTILEDATA is state component 18, and
// a grant covers every thread of the process, present and future. Elsewhere: never granted.
bool amx_granted() {
#if defined(__x86_64__) && defined(__linux__)
  constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
#else
  return false;
#endif
}

CpuLevel detect() {
  const Cpuid l1 = cpuid(1, 0), l7 = cpuid(7, 0), e1 = cpuid(0x80000001u, 0);
  const Cpuid l7s1 = l7.a >= 1 ? cpuid(7, 1) : Cpuid{};  // leaf 7's EAX: its last sub-leaf
  const bool osxsave = (l1.c >> 27) & 1u;
  const unsigned long long x = osxsave ? xcr0() : 0;
  const bool ymm_state = (x & 0x6u) == 0x6u;     // SSE and AVX registers
  const bool zmm_state = (x & 0xE6u) == 0xE6u;   // and opmask, ZMM0-15 upper, ZMM16-31
  auto bit = [](unsigned reg, int b) { return ((reg >> b) & 1u) != 0; };
  // x86-64-v3, what the avx2 kernels are compiled for (-march=x86-64-v3): the compiler may
  // use any of these, not only AVX2 and FMA.
  const bool v3 = bit(l1.c, 12) /* fma */ && bit(l1.c, 22) /* movbe */ &&
                  bit(l1.c, 28) /* avx */ && bit(l1.c, 29) /* f16c */ &&
                  bit(l7.b, 3) /* bmi1 */ && bit(l7.b, 5) /* avx2 */ && bit(l7.b, 8) /* bmi2 */ &&
                  bit(e1.c, 5) /* lzcnt */;
  // x86-64-v4 (-march=x86-64-v4): AVX-512 F, DQ, CD, BW, VL.
  const bool v4 = bit(l7.b, 16) && bit(l7.b, 17) && bit(l7.b, 28) && bit(l7.b, 30) &&
                  bit(l7.b, 31);
  const bool avx512bf16 = bit(l7s1.a, 5);
  const bool amx = bit(l7.d, 22) /* amx_bf16 */ && bit(l7.d, 24) /* amx_tile */;
  const bool tile_state = (x & 0x60000u) == 0x60000u;  // XTILECFG and XTILEDATA
  if (!(ymm_state && v3)) return CpuLevel::Baseline;
  if (!(zmm_state && v4)) return CpuLevel::Avx2;
  if (!avx512bf16) return CpuLevel::Avx512;
  return amx && tile_state && amx_granted() ? CpuLevel::AmxBf16 : CpuLevel::Avx512Bf16;
}

bool detect_amx_bf16() {
  const Cpuid l7 = cpuid(7, 0);
  return ((l7.d >> 22) & 1u) && ((l7.d >> 24) & 1u);  // amx_bf16, amx_tile
}
#else
CpuLevel detect() { return CpuLevel::Baseline; }
bool detect_amx_bf16() { return false; }
#endif

// HWCAP2_BF16 in the auxiliary vector the kernel hands the process (<asm/hwcap.h>: bit 14).
bool detect_neon_bf16() {
#if defined(__aarch64__) && defined(__linux__)
  return (getauxval(AT_HWCAP2) & (1ul << 14)) != 0;
#else
  return false;
#endif
}

// ATTIC_CPU_CAPABILITY, checked against the supported level.
CpuLevel chosen(CpuLevel supported) {
  const char* env = std::getenv("ATTIC_CPU_CAPABILITY");
  if (env == nullptr || *env == '\0') return supported;
  const std::string want = env;
  for (CpuLevel l : kLevels)
    if (want == cpu_level_name(l)) {
      ATTIC_CHECK(int(l) <= int(supported), "ATTIC_CPU_CAPABILITY=", want, ": this CPU supports ",
                  cpu_level_name(supported), " at most, so it cannot run ", want, " kernels");
      return l;
    }
  fail("ATTIC_CPU_CAPABILITY=", want, ": not a level (baseline, avx2, avx512, avx512_bf16, amx_bf16)");
}

}  // namespace

const char* cpu_level_name(CpuLevel level) {
  switch (level) {
    case CpuLevel::Baseline: return "baseline";
    case CpuLevel::Avx2: return "avx2";
    case CpuLevel::Avx512: return "avx512";
    case CpuLevel::Avx512Bf16: return "avx512_bf16";
    case CpuLevel::AmxBf16: return "amx_bf16";
  }
  return "?";
}

CpuLevel cpu_level_supported() {
  static const CpuLevel level = detect();
  return level;
}

// Read once: the environment is a process's setting, and a kernel asks on every call.
CpuLevel cpu_level() {
  static const CpuLevel level = chosen(cpu_level_supported());
  return level;
}

bool cpu_has_amx_bf16() {
  static const bool has = detect_amx_bf16();
  return has;
}

bool cpu_neon_bf16() {
  static const bool use = [] {
    const char* env = std::getenv("ATTIC_CPU_CAPABILITY");
    (void)cpu_level();  // a bad value is an Error there
    return detect_neon_bf16() && (env == nullptr || *env == '\0');
  }();
  return use;
}

std::string cpu_level_summary() {
  std::string s = std::string(cpu_level_name(cpu_level())) + " (of " +
                  cpu_level_name(cpu_level_supported());
  if (cpu_level() != cpu_level_supported()) s += ", lowered by ATTIC_CPU_CAPABILITY";
  if (detect_neon_bf16()) s += cpu_neon_bf16() ? "; NEON BF16" : "; NEON BF16 present, unused";
  if (cpu_has_amx_bf16() && int(cpu_level_supported()) < int(CpuLevel::AmxBf16))
    s += "; AMX bf16 present, its tile state not granted by the operating system";
  return s + ")";
}

}  // namespace attic::cpu
