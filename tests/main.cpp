// The one Catch2 main, compiled once and linked into every test program and exercise check.
#define ATTIC_CATCH2_RUNNER
#include "tests/catch.h"

#include <cstdlib>
#include <iostream>
#include <string>

#include "tensor/cpu/cpu_features.h"

int main(int argc, char* argv[]) {
  // A portable build's tests run again at each CPU level below the top one (tests/CMakeLists.txt),
  // with ATTIC_CPU_CAPABILITY naming it. A level this CPU lacks is a skip of the whole
  // program, in words ctest's SKIP_REGULAR_EXPRESSION for those runs matches; a name that is
  // no level fails in the first kernel, as it should.
  using attic::cpu::CpuLevel;
  const char* want = std::getenv("ATTIC_CPU_CAPABILITY");
  const CpuLevel supported = attic::cpu::cpu_level_supported();
  for (CpuLevel l : {CpuLevel::Baseline, CpuLevel::Avx2, CpuLevel::Avx512, CpuLevel::Avx512Bf16,
                     CpuLevel::AmxBf16})
    if (want != nullptr && std::string(want) == attic::cpu::cpu_level_name(l) &&
        int(l) > int(supported)) {
      std::cout << "skipped (cpu level): ATTIC_CPU_CAPABILITY=" << want << ", and this CPU "
                << "supports " << attic::cpu::cpu_level_name(supported) << " at most\n";
      return 0;
    }
  return Catch::Session().run(argc, argv);
}
