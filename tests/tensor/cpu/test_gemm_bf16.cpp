// The bf16 GEMM (tensor/cpu/gemm_bf16.cpp) against its naive reference, on every path this
// CPU can run: each operand rounded to bfloat16, the products summed in float32.
#include "tests/catch.h"

#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "tensor/cpu/cpu_features.h"
#include "tensor/cpu/gemm_bf16.h"
#include "tensor/error.h"
#include "tensor/threads.h"

using namespace attic;
using cpu::Bf16Path;

#if defined(__x86_64__)
#define ATTIC_X86_64 true
#else
#define ATTIC_X86_64 false
#endif

namespace {

struct Dims {
  int64_t M, N, K;
};

// Edges of the 14 x 32 tile, of AMX's 32 x 32 block and its depth of 16 pairs, and of the
// packed pairs: odd K (a half-empty last pair), M and N below, at and above one tile, a row of
// C (M = 1), K over one KC block (512), more rows than one MC block (1022, AMX's 1024), more
// columns than one NC block (1024), and the GPT's shapes.
const std::vector<Dims> kShapes = {
    {1, 1, 1},    {1, 1, 2},     {13, 31, 3},   {14, 32, 4},   {15, 33, 5},   {1, 768, 128},
    {29, 70, 1},  {100, 17, 513}, {7, 40, 1100}, {1030, 40, 6}, {20, 1100, 9}, {768, 128, 384},
    {768, 512, 128}, {64, 64, 64}, {31, 31, 31}, {32, 32, 32}, {33, 64, 33}, {65, 96, 544},
};

enum class Layout { RowMajor, Transposed, Strided };

// A rows x cols operand of U(-1, 1) draws (or small whole numbers, exact in bfloat16 and in
// any float32 sum of their products), and its (row stride, column stride).
template <class T>
struct Operand {
  std::vector<T> data;
  int64_t rs = 0, cs = 0;
  Operand(int64_t rows, int64_t cols, Layout layout, std::mt19937& rng, bool whole) {
    switch (layout) {
      case Layout::RowMajor: rs = cols, cs = 1; break;
      case Layout::Transposed: rs = 1, cs = rows; break;
      case Layout::Strided: rs = 2 * cols, cs = 2; break;
    }
    data.resize(size_t(std::max<int64_t>(1, (rows - 1) * rs + (cols - 1) * cs + 1)));
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::uniform_int_distribution<int> w(-4, 4);
    for (T& x : data) {
      const float v = whole ? float(w(rng)) : u(rng);
      if constexpr (std::is_same_v<T, bfloat16>) x = to_bfloat16(v);
      else x = v;
    }
  }
  float at(int64_t r, int64_t c) const {
    const T x = data[size_t(r * rs + c * cs)];
    if constexpr (std::is_same_v<T, bfloat16>) return to_float(x);
    else return bfloat16_bits_to_float(float_to_bfloat16_bits(x));
  }
};

// gemm_bf16 on `path` against gemm_bf16_naive, C (leading dimension N + 2) prefilled with NaN
// (or with 1, accumulate). Whole-number operands must agree exactly; others within
// 4 K eps_float32 Σ_k |A(i, k) B(k, j)| of the rounded operands, the bound of two float32 sums
// of the same exact products in different orders. With a triangle, A's zero triangle
// (kLowerA, kUpperA) is zeroed for both, and only the wanted C(i, j), j <= i, is compared for
// kLowerC.
template <class TA, class TB>
void check(Bf16Path path, Dims d, Layout la, Layout lb, bool whole, bool accumulate,
           cpu::Triangle tri = cpu::Triangle::kNone) {
  std::mt19937 rng(uint32_t(d.M * 7919 + d.N * 31 + d.K));
  Operand<TA> A(d.M, d.K, la, rng, whole);
  const Operand<TB> B(d.K, d.N, lb, rng, whole);
  for (int64_t i = 0; i < d.M; ++i)
    for (int64_t k = 0; k < d.K; ++k)
      if ((tri == cpu::Triangle::kLowerA && k > i) || (tri == cpu::Triangle::kUpperA && k < i))
        A.data[size_t(i * A.rs + k * A.cs)] = TA{};  // 0 in float and in bfloat16
  const int64_t ldc = d.N + 2;
  const float fill = accumulate ? 1.0f : std::numeric_limits<float>::quiet_NaN();
  std::vector<float> fast(size_t(d.M * ldc), fill), ref(size_t(d.M * ldc), 0.0f);
  cpu::gemm_bf16(d.M, d.N, d.K, A.data.data(), A.rs, A.cs, B.data.data(), B.rs, B.cs,
                 fast.data(), ldc, tri, accumulate, path);
  cpu::gemm_bf16_naive(d.M, d.N, d.K, A.data.data(), A.rs, A.cs, B.data.data(), B.rs, B.cs,
                       ref.data(), ldc);
  const double tol = 4.0 * double(d.K) * std::numeric_limits<float>::epsilon();
  int64_t bad = 0;
  for (int64_t i = 0; i < d.M; ++i) {
    for (int64_t j = 0; j < (tri == cpu::Triangle::kLowerC ? std::min(i + 1, d.N) : d.N); ++j) {
      double scale = 0;
      for (int64_t k = 0; k < d.K; ++k) scale += std::abs(double(A.at(i, k)) * double(B.at(k, j)));
      const size_t at = size_t(i * ldc + j);
      const double want = double(ref[at]) + (accumulate ? 1.0 : 0.0);
      const double err = std::abs(double(fast[at]) - want);
      if (whole ? err != 0 : !(err <= tol * scale + 1e-6 * accumulate)) ++bad;
    }
    for (int64_t j = d.N; j < ldc; ++j)  // the padding columns are left alone
      if (accumulate ? fast[size_t(i * ldc + j)] != 1.0f : !std::isnan(fast[size_t(i * ldc + j)]))
        ++bad;
  }
  INFO("path " << cpu::bf16_path_name(path) << " M=" << d.M << " N=" << d.N << " K=" << d.K
               << " layouts " << int(la) << "," << int(lb) << (whole ? " whole" : " random")
               << (accumulate ? " accumulate" : "") << " triangle " << int(tri)
               << " threads=" << num_threads());
  CHECK(bad == 0);
}

// The paths of bf16 instructions: AMX's tdpbf16ps, AVX512_BF16's vdpbf16ps, NEON's BFDOT.
const Bf16Path kHardwarePaths[] = {Bf16Path::Amx, Bf16Path::Avx512Bf16, Bf16Path::NeonBf16};

// The paths to test: Convert always; the others where the CPU has them.
std::vector<Bf16Path> paths() {
  std::vector<Bf16Path> p = {Bf16Path::Convert};
  for (Bf16Path h : kHardwarePaths)
    if (cpu::bf16_path_available(h)) p.push_back(h);
  return p;
}

// The hardware paths this CPU runs, or none, with a skip line.
std::vector<Bf16Path> hardware_paths() {
  std::vector<Bf16Path> p = paths();
  p.erase(p.begin());
  if (p.empty())
    std::cout << "skipped: this CPU runs at " << cpu::cpu_level_summary()
              << ", without AMX, AVX512_BF16 or NEON BF16" << std::endl;
  return p;
}

template <class F>
void with_1_and_2_threads(F body) {
  const int saved = num_threads();
  for (int t : {1, 2}) {
    set_num_threads(t);
    body();
  }
  set_num_threads(saved);
}

}  // namespace

TEST_CASE("gemm_bf16: the convert path matches gemm_bf16_naive", "[cpu][gemm][bf16]") {
  with_1_and_2_threads([] {
    for (const Dims& d : kShapes)
      for (bool whole : {true, false})
        check<float, float>(Bf16Path::Convert, d, Layout::RowMajor, Layout::Transposed, whole, false);
    check<float, float>(Bf16Path::Convert, {33, 65, 17}, Layout::Strided, Layout::RowMajor, false, true);
    check<bfloat16, bfloat16>(Bf16Path::Convert, {33, 65, 17}, Layout::Transposed, Layout::Strided,
                              true, false);
  });
}

TEST_CASE("gemm_bf16: the AMX, AVX512_BF16 and NEON BF16 paths match gemm_bf16_naive",
          "[cpu][gemm][bf16]") {
  for (Bf16Path path : hardware_paths())
    with_1_and_2_threads([path] {
      for (const Dims& d : kShapes)
        for (Layout la : {Layout::RowMajor, Layout::Transposed, Layout::Strided})
          for (Layout lb : {Layout::RowMajor, Layout::Transposed})
            for (bool whole : {true, false})
              check<float, float>(path, d, la, lb, whole, false);
      for (bool acc : {false, true}) {
        check<bfloat16, bfloat16>(path, {45, 70, 99}, Layout::RowMajor, Layout::RowMajor, false,
                                  acc);
        check<float, bfloat16>(path, {45, 70, 99}, Layout::Strided, Layout::Transposed, true,
                               acc);
        check<bfloat16, float>(path, {3, 700, 600}, Layout::Transposed, Layout::RowMajor, false,
                               acc);
      }
    });
}

TEST_CASE("gemm_bf16: causal attention's triangles, on every path", "[cpu][gemm][bf16]") {
  // The fused attention's products in bfloat16 (tensor/cpu/attention.cpp): square ones as a
  // head's diagonal block, rectangles whose strips end (kLowerA) or start (kUpperA) inside a
  // pair, K past one KC block, and a wide C that two threads split by columns (kLowerC then
  // counts rows from each part's own origin).
  using cpu::Triangle;
  const std::vector<Dims> shapes = {{1, 1, 1},    {13, 13, 13},  {45, 45, 45},  {64, 64, 64},
                                    {100, 40, 100}, {29, 70, 29}, {600, 16, 600}, {20, 400, 7}};
  with_1_and_2_threads([&] {
    for (Bf16Path path : paths())
      for (Triangle tri : {Triangle::kLowerC, Triangle::kLowerA, Triangle::kUpperA})
        for (const Dims& d : shapes)
          for (bool acc : {false, true}) {
            check<float, float>(path, d, Layout::RowMajor, Layout::RowMajor, true, acc, tri);
            check<float, float>(path, d, Layout::Transposed, Layout::Transposed, false, acc, tri);
          }
  });
}

TEST_CASE("gemm_bf16: the same bits at one thread and two, on every path", "[cpu][gemm][bf16]") {
  const Dims d{300, 200, 700};
  std::mt19937 rng(5);
  const Operand<float> A(d.M, d.K, Layout::RowMajor, rng, false);
  const Operand<float> B(d.K, d.N, Layout::Transposed, rng, false);
  for (Bf16Path path : paths()) {
    std::vector<std::vector<float>> out;
    with_1_and_2_threads([&] {
      out.emplace_back(size_t(d.M * d.N));
      cpu::gemm_bf16(d.M, d.N, d.K, A.data.data(), A.rs, A.cs, B.data.data(), B.rs, B.cs,
                     out.back().data(), d.N, cpu::Triangle::kNone, false, path);
    });
    INFO("path " << cpu::bf16_path_name(path));
    CHECK(out[0] == out[1]);
  }
}

TEST_CASE("gemm_bf16: empty products, and a path the CPU lacks", "[cpu][gemm][bf16]") {
  std::vector<float> C;
  const float one = 1;
  for (Bf16Path path : paths()) {
    C.assign(6, 3.0f);
    cpu::gemm_bf16(2, 3, 0, &one, 1, 1, &one, 1, 1, C.data(), 3, cpu::Triangle::kNone, true, path);
    CHECK(C == std::vector<float>(6, 3.0f));  // K = 0, accumulate: C unchanged
    cpu::gemm_bf16(2, 3, 0, &one, 1, 1, &one, 1, 1, C.data(), 3, cpu::Triangle::kNone, false, path);
    CHECK(C == std::vector<float>(6, 0.0f));  // K = 0: C is the empty sum
  }
  for (Bf16Path path : kHardwarePaths)
    if (!cpu::bf16_path_available(path))
      CHECK_THROWS_AS(cpu::gemm_bf16(1, 1, 1, &one, 1, 1, &one, 1, 1, C.data(), 1,
                                     cpu::Triangle::kNone, false, path),
                      Error);
  CHECK(std::string(cpu::cpu_level_name(cpu::cpu_level())).size() > 0);
}

TEST_CASE("gemm_bf16: the path follows the CPU level", "[cpu][gemm][bf16]") {
  // amx_bf16 is the top level and includes avx512_bf16: AMX is chosen where it is granted, and
  // the vdpbf16ps path stays available beside it (ATTIC_CPU_CAPABILITY=avx512_bf16 lowers to it).
  using cpu::CpuLevel;
  CHECK(std::string(cpu::cpu_level_name(CpuLevel::AmxBf16)) == "amx_bf16");
  const CpuLevel level = cpu::cpu_level();
  CHECK(cpu::bf16_path_available(Bf16Path::Amx) == (level >= CpuLevel::AmxBf16 && ATTIC_X86_64));
  if (cpu::bf16_path_available(Bf16Path::Amx)) {
    CHECK(cpu::bf16_path_available(Bf16Path::Avx512Bf16));
    CHECK(cpu::bf16_gemm_path() == Bf16Path::Amx);
    CHECK(cpu::cpu_has_amx_bf16());
  } else if (cpu::bf16_path_available(Bf16Path::Avx512Bf16)) {
    CHECK(cpu::bf16_gemm_path() == Bf16Path::Avx512Bf16);
  }
  INFO("CPU level " << cpu::cpu_level_summary());
  CHECK(std::string(cpu::bf16_path_name(cpu::bf16_gemm_path())).size() > 0);
}
