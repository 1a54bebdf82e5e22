#include "tests/catch.h"

#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/gemm.h"
#include "tensor/cpu/gemm_pack.h"
#include "tensor/cpu/thread_pool.h"

using namespace attic;

namespace {

struct Dims {
  int64_t M, N, K;
};

// Covers: 1x1x1; primes; vectors (M = 1, N = 1); just under and over the small-problem cutoff
// (32^3); edges in M and N at once (257x129x65); more rows than one MC block (1400); more
// columns than one NC block (4100); K over several KC blocks (384, 700); a GPT shape
// (768x128x384); few rows and many columns (the column-split path); a row-major A read in
// place with K over two of its longer KC blocks (1000 = 500 + 500), more columns than its
// narrower B panel (530), and in float a last block of A shorter than one strip (61 = 56 + 5
// rows with AVX-512's 14-row strips, 60 + 1 with AVX2's 6), read shifted up into the block
// above.
const std::vector<Dims> kShapes = {
    {1, 1, 1},   {7, 13, 5},    {1, 1000, 1}, {31, 32, 33},   {33, 33, 33},  {257, 129, 65},
    {1, 700, 300}, {300, 1, 700}, {20, 4100, 30}, {1400, 40, 20}, {768, 128, 384}, {5, 600, 97},
    {61, 530, 1000},
};

// How A or B lies in memory.
enum class Layout {
  RowMajor,    // X(r, c) = x[r * cols + c]
  Transposed,  // X(r, c) = x[c * rows + r]: the memory of X^T, read through swapped strides
  Padded,      // X(r, c) = x[r * (cols + 3) + c]: a column slice of a wider matrix
  Strided,     // X(r, c) = x[r * 2 cols + 2 c]: every other element, no unit stride at all
};

// A rows x cols operand filled with U(-1, 1), and its (row stride, column stride).
template <class T>
struct Operand {
  std::vector<T> data;
  int64_t rs = 0, cs = 0;

  Operand(int64_t rows, int64_t cols, Layout layout, std::mt19937& rng) {
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    switch (layout) {
      case Layout::RowMajor: rs = cols, cs = 1; break;
      case Layout::Transposed: rs = 1, cs = rows; break;
      case Layout::Padded: rs = cols + 3, cs = 1; break;
      case Layout::Strided: rs = 2 * cols, cs = 2; break;
    }
    data.resize(size_t(std::max<int64_t>(1, (rows - 1) * rs + (cols - 1) * cs + 1)));
    for (T& x : data) x = T(u(rng));
  }
  T at(int64_t r, int64_t c) const { return data[size_t(r * rs + c * cs)]; }
};

// Runs gemm and gemm_naive on the same operands, with C (leading dimension N + 2) prefilled
// with NaN so a missed or accumulated-into element shows. Each element must agree within
// the rounding bound |err| <= tol * Σ_k |A(i, k)| |B(k, j)|, tol = 4 K eps: a wrong index
// gives an error of order Σ_k |A||B| itself.
// With a triangle, A's zero triangle (kLowerA, kUpperA) is zeroed for both, and only the
// wanted C(i, j), j <= i, is compared for kLowerC.
template <class T>
void check_against_naive(Dims d, Layout la, Layout lb, cpu::Triangle tri = cpu::Triangle::kNone) {
  std::mt19937 rng(uint32_t(d.M * 10007 + d.N * 101 + d.K));
  Operand<T> A(d.M, d.K, la, rng), B(d.K, d.N, lb, rng);
  for (int64_t i = 0; i < d.M; ++i)
    for (int64_t k = 0; k < d.K; ++k)
      if ((tri == cpu::Triangle::kLowerA && k > i) || (tri == cpu::Triangle::kUpperA && k < i))
        A.data[size_t(i * A.rs + k * A.cs)] = T(0);
  const int64_t ldc = d.N + 2;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> fast(size_t(d.M * ldc), nan), ref(size_t(d.M * ldc), nan);
  cpu::gemm<T>(d.M, d.N, d.K, A.data.data(), A.rs, A.cs, B.data.data(), B.rs, B.cs,
               fast.data(), ldc, tri);
  cpu::gemm_naive<T>(d.M, d.N, d.K, A.data.data(), A.rs, A.cs, B.data.data(), B.rs, B.cs,
                     ref.data(), ldc);

  const double tol = 4.0 * double(std::max<int64_t>(d.K, 1)) * std::numeric_limits<T>::epsilon();
  int64_t bad = 0;
  double worst = 0;
  for (int64_t i = 0; i < d.M; ++i)
    for (int64_t j = 0; j < (tri == cpu::Triangle::kLowerC ? std::min(i + 1, d.N) : d.N); ++j) {
      double scale = 0;
      for (int64_t k = 0; k < d.K; ++k) scale += std::abs(double(A.at(i, k)) * double(B.at(k, j)));
      const size_t at = size_t(i * ldc + j);
      const double err = std::abs(double(fast[at]) - double(ref[at]));
      if (!(err <= tol * scale)) ++bad;  // also counts NaN
      if (scale > 0) worst = std::max(worst, err / scale);
    }
  // The two padding columns of each C row are left alone.
  for (int64_t i = 0; i < d.M; ++i)
    for (int64_t j = d.N; j < ldc; ++j)
      if (!std::isnan(fast[size_t(i * ldc + j)])) ++bad;
  INFO("M=" << d.M << " N=" << d.N << " K=" << d.K << " layouts " << int(la) << ","
            << int(lb) << " triangle " << int(tri) << " threads=" << num_threads()
            << " worst relative error " << worst);
  CHECK(bad == 0);
}

// Runs body once with 1 thread and once with 2, then restores the thread count.
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

TEST_CASE("gemm: matches gemm_naive on row-major operands, float", "[cpu][gemm]") {
  with_1_and_2_threads([] {
    for (Dims d : kShapes) check_against_naive<float>(d, Layout::RowMajor, Layout::RowMajor);
  });
}

TEST_CASE("gemm: matches gemm_naive on row-major operands, double", "[cpu][gemm]") {
  with_1_and_2_threads([] {
    for (Dims d : kShapes) check_against_naive<double>(d, Layout::RowMajor, Layout::RowMajor);
  });
}

TEST_CASE("gemm: transposed and padded strides cost nothing in correctness", "[cpu][gemm]") {
  // 100x40x600 reads a transposed A where it lies (as the GPT's dW = dYᵀ X does) over three
  // KC blocks; 1024x20x100 and 512x20x100 with a transposed A have its columns 4 KiB and
  // 2 KiB apart in float (twice that in double), so the k-major A is packed; 100x260x600 with
  // a transposed A has 260 columns of C, enough for its k-major A to be packed too.
  // 130x64x300: few rows (10 strips, the last one shifted, with AVX-512's MR = 14) and whole
  // strips of columns, so a row-major (or padded) B is read where it lies too, over two KC
  // blocks. 47x64x300 does the same with every target's tile (MR = 5 on NEON, 6 on AVX2 and
  // SSE, 14 on AVX-512; NR = 8 to 32): at most 10 strips, the last one partial.
  const std::vector<Dims> shapes = {{7, 13, 5},      {257, 129, 65},  {1, 700, 300},
                                    {768, 128, 384}, {100, 40, 600},  {1024, 20, 100},
                                    {512, 20, 100},  {100, 260, 600}, {130, 64, 300},
                                    {47, 64, 300}};
  const Layout layouts[] = {Layout::RowMajor, Layout::Transposed, Layout::Padded};
  with_1_and_2_threads([&] {
    for (Dims d : shapes)
      for (Layout la : layouts)
        for (Layout lb : layouts) {
          check_against_naive<float>(d, la, lb);
          check_against_naive<double>(d, la, lb);
        }
  });
}

TEST_CASE("gemm: every way of reading A, packed or in place", "[cpu][gemm]") {
  // A packed row by row: its rows 4 KiB apart (K = 1024 floats, 512 doubles), which would
  // alias in L1 if read in place, or no unit stride at all. A column-major A of fewer rows
  // than a strip (M = 5; M = 4 on NEON, whose strips are 5 rows), read in place with its one
  // partial strip packed.
  with_1_and_2_threads([] {
    check_against_naive<float>({40, 50, 1024}, Layout::RowMajor, Layout::RowMajor);
    check_against_naive<double>({40, 50, 512}, Layout::RowMajor, Layout::Transposed);
    for (Dims d : {Dims{50, 60, 70}, Dims{5, 200, 300}}) {
      check_against_naive<float>(d, Layout::Strided, Layout::RowMajor);
      check_against_naive<double>(d, Layout::Strided, Layout::Padded);
    }
    for (int64_t m : {5, 4}) {
      check_against_naive<float>({m, 200, 300}, Layout::Transposed, Layout::RowMajor);
      check_against_naive<double>({m, 200, 300}, Layout::Transposed, Layout::Transposed);
    }
  });
}

TEST_CASE("gemm: a causal triangle skips only work whose result is zero or unwanted",
          "[cpu][gemm]") {
  // Attention's 64 x 64 x 32 products (strips of MR rows cut the diagonal); K over two KC
  // blocks, with row ranges that end (kLowerA) or start (kUpperA) in either; the column
  // split (few rows, many columns), where the diagonal is met at a column offset; and rows
  // split over 2 threads, where it is met at a row offset.
  // 500x300x40: wide C rows, so A is split into blocks of fewer rows (MC), each meeting the
  // diagonal at its own row offset.
  const std::vector<Dims> shapes = {{64, 64, 32},   {64, 32, 64},  {300, 40, 300},
                                    {100, 70, 300}, {20, 600, 40}, {257, 129, 65},
                                    {100, 64, 300}, {500, 300, 40}};
  using cpu::Triangle;
  with_1_and_2_threads([&] {
    for (Dims d : shapes)
      for (Triangle tri : {Triangle::kLowerC, Triangle::kLowerA, Triangle::kUpperA})
        for (Layout la : {Layout::RowMajor, Layout::Transposed}) {
          check_against_naive<float>(d, la, Layout::RowMajor, tri);
          check_against_naive<double>(d, la, Layout::Transposed, tri);
        }
  });
}

TEST_CASE("gemm: columns that fill one vector take the narrow tile", "[cpu][gemm]") {
  // N = 16 (a Linformer head's d; one AVX-512 vector of float, two of double) and N = 8:
  // every strip of B fits one vector, so the narrow micro-kernel computes each tile, full
  // (its vector store) or at an edge. 48 and 40: the last strip narrow after full ones.
  // The products of one Linformer head: P V̄ (K = 128), E K over several KC blocks (the
  // transposed E read k-major), dV̄ = Pᵀ dout; and the causal triangles.
  const std::vector<Dims> shapes = {{1000, 16, 128}, {128, 16, 4096}, {300, 8, 70},
                                    {300, 48, 70},   {71, 40, 300},   {14, 16, 16}};
  using cpu::Triangle;
  with_1_and_2_threads([&] {
    for (Dims d : shapes)
      for (Layout la : {Layout::RowMajor, Layout::Transposed, Layout::Padded}) {
        check_against_naive<float>(d, la, Layout::RowMajor);
        check_against_naive<double>(d, la, Layout::Transposed);
      }
    for (Triangle tri : {Triangle::kLowerC, Triangle::kLowerA, Triangle::kUpperA})
      for (Layout la : {Layout::RowMajor, Layout::Transposed}) {
        check_against_naive<float>({300, 16, 300}, la, Layout::RowMajor, tri);
        check_against_naive<double>({64, 16, 64}, la, Layout::RowMajor, tri);
      }
  });
}

TEST_CASE("gemm: float products with N a multiple of 48 take the wide tile", "[cpu][gemm]") {
  // The kernels running are this file's own level in a native build (the same flags), or
  // in a portable one the level backend_for chose, of which avx512 alone has 32 registers.
  const std::string isa = cpu::cpu_backend().isa();
  if (isa == "native" ? cpu::gemm_detail::kWideNV == 0 : isa != "avx512") {
    std::cout << "skipped: the " << isa << " kernels have no wide tile (it needs 32 vector "
              << "registers on x86)" << std::endl;
    return;
  }
  // N = 384 (8 strips of 48) with 8-row strips: 37 = 4 x 8 + 5 rows, B read in place when
  // row-major (37 <= 80 rows); 93 rows with K = 300, over one KC, so a row-major A in place
  // takes the long KC and its blocks of 88 rows, the last 5 shifted into the block above.
  // Every way of reading A (in place by rows, k-major, packed), B packed or transposed;
  // and the causal triangles, whose diagonal meets the 8-row strips, A by rows and k-major
  // (whose strips the loops visit in the other order: see gemm.cpp's a_strip_outer).
  using cpu::Triangle;
  with_1_and_2_threads([&] {
    for (Dims d : {Dims{37, 384, 70}, Dims{93, 384, 300}})
      for (Layout la : {Layout::RowMajor, Layout::Transposed, Layout::Strided})
        for (Layout lb : {Layout::RowMajor, Layout::Transposed})
          check_against_naive<float>(d, la, lb);
    for (Triangle tri : {Triangle::kLowerC, Triangle::kLowerA, Triangle::kUpperA})
      for (Layout la : {Layout::RowMajor, Layout::Transposed})
        check_against_naive<float>({100, 384, 100}, la, Layout::RowMajor, tri);
  });
}

TEST_CASE("gemm: an uneven split over three threads", "[cpu][gemm]") {
  const int saved = num_threads();
  set_num_threads(3);
  for (Dims d : {Dims{257, 129, 65}, Dims{3, 1000, 200}, Dims{768, 128, 384}})
    check_against_naive<float>(d, Layout::RowMajor, Layout::Transposed);
  set_num_threads(saved);
}

TEST_CASE("gemm: a wide C is split by columns, to the same sums as one thread", "[cpu][gemm]") {
  // N = 1536 splits C by columns over 2 and 3 threads although M has more strips than N
  // (600 rows: 75 strips of 8, 100 of 6, 120 of 5, against 32 of 48 or 96 of 16 columns).
  // Each C element is then the same sum in the same order as on one thread, so the results
  // are compared bit for bit, and with gemm_naive's.
  const int saved = num_threads();
  const Dims d{600, 1536, 8};
  std::mt19937 rng(7);
  for (Layout la : {Layout::RowMajor, Layout::Transposed}) {
    Operand<float> A(d.M, d.K, la, rng), B(d.K, d.N, Layout::Transposed, rng);
    std::vector<std::vector<float>> C;
    for (int t : {1, 2, 3}) {
      set_num_threads(t);
      C.emplace_back(size_t(d.M * d.N));
      cpu::gemm<float>(d.M, d.N, d.K, A.data.data(), A.rs, A.cs, B.data.data(), B.rs, B.cs,
                       C.back().data(), d.N);
    }
    INFO("layout of A " << int(la));
    CHECK(C[1] == C[0]);
    CHECK(C[2] == C[0]);
    check_against_naive<float>(d, la, Layout::Transposed);
  }
  set_num_threads(saved);
}

TEST_CASE("gemm: K = 0 writes zeros, M = 0 or N = 0 writes nothing", "[cpu][gemm]") {
  for (Dims d : {Dims{1, 1, 0}, Dims{5, 7, 0}, Dims{300, 200, 0}}) {
    std::vector<float> C(size_t(d.M * d.N), 9.0f);
    const float one = 1.0f;
    cpu::gemm<float>(d.M, d.N, 0, &one, 1, 1, &one, 1, 1, C.data(), d.N);
    CHECK(C == std::vector<float>(C.size(), 0.0f));
  }
  std::vector<double> C(4, 9.0);
  const double one = 1.0;
  cpu::gemm<double>(0, 2, 3, &one, 0, 0, &one, 0, 0, C.data(), 2);
  cpu::gemm<double>(2, 0, 3, &one, 0, 0, &one, 0, 0, C.data(), 2);
  CHECK(C == std::vector<double>(4, 9.0));
}

TEST_CASE("gemm: a product worked by hand", "[cpu][gemm]") {
  // [1 2 3]   [1 0]   [1*1 + 2*2 + 3*1, 1*0 + 2*1 + 3*(-1)]   [ 8 -1]
  // [4 5 6] @ [2 1] = [4*1 + 5*2 + 6*1, 4*0 + 5*1 + 6*(-1)] = [20 -1]
  //           [1 -1]
  const float A[] = {1, 2, 3, 4, 5, 6};
  const float B[] = {1, 0, 2, 1, 1, -1};
  float C[4] = {};
  cpu::gemm<float>(2, 2, 3, A, 3, 1, B, 2, 1, C, 2);
  CHECK(std::vector<float>(C, C + 4) == std::vector<float>{8, -1, 20, -1});
}

TEST_CASE("gemm: accumulate adds the product to C", "[cpu][gemm]") {
  // The product worked by hand above, added to C = 1: [9 0; 21 0].
  const float A[] = {1, 2, 3, 4, 5, 6};
  const float B[] = {1, 0, 2, 1, 1, -1};
  float C[4] = {1, 1, 1, 1};
  cpu::gemm<float>(2, 2, 3, A, 3, 1, B, 2, 1, C, 2, cpu::Triangle::kNone, true);
  CHECK(std::vector<float>(C, C + 4) == std::vector<float>{9, 0, 21, 0});
  // K = 0 adds nothing.
  cpu::gemm<float>(2, 2, 0, A, 3, 1, B, 2, 1, C, 2, cpu::Triangle::kNone, true);
  CHECK(std::vector<float>(C, C + 4) == std::vector<float>{9, 0, 21, 0});
  // Against gemm_naive plus the old C, on the small loop, several KC blocks (where the
  // blocked loop adds to C itself), the column split, and the triangles attention uses.
  using cpu::Triangle;
  with_1_and_2_threads([] {
    for (Dims d : {Dims{7, 13, 5}, Dims{257, 129, 65}, Dims{300, 40, 700}, Dims{20, 600, 40}})
      for (Triangle tri : {Triangle::kNone, Triangle::kLowerA, Triangle::kUpperA}) {
        std::mt19937 rng(uint32_t(d.M + d.N + d.K));
        Operand<double> a(d.M, d.K, Layout::Transposed, rng), b(d.K, d.N, Layout::RowMajor, rng);
        for (int64_t i = 0; i < d.M; ++i)
          for (int64_t k = 0; k < d.K; ++k)
            if ((tri == Triangle::kLowerA && k > i) || (tri == Triangle::kUpperA && k < i))
              a.data[size_t(i * a.rs + k * a.cs)] = 0;
        std::vector<double> c0(size_t(d.M * d.N));
        for (size_t i = 0; i < c0.size(); ++i) c0[i] = double(i % 7) - 3;
        std::vector<double> fast = c0, ref(c0.size());
        cpu::gemm<double>(d.M, d.N, d.K, a.data.data(), a.rs, a.cs, b.data.data(), b.rs, b.cs,
                          fast.data(), d.N, tri, true);
        cpu::gemm_naive<double>(d.M, d.N, d.K, a.data.data(), a.rs, a.cs, b.data.data(), b.rs,
                                b.cs, ref.data(), d.N);
        double worst = 0;
        for (size_t i = 0; i < ref.size(); ++i)
          worst = std::max(worst, std::abs(fast[i] - (ref[i] + c0[i])));
        INFO("M=" << d.M << " N=" << d.N << " K=" << d.K << " triangle " << int(tri));
        CHECK(worst < 1e-12 * double(d.K));
      }
  });
}

TEST_CASE("gemm: one row (M = 1) is gemv, in each layout it takes and each it does not", "[cpu][gemm]") {
  // A Linear's Wᵀ (B transposed: dot products), a row-major B (rows added), a strided A
  // (dot products need A contiguous: rows added), a strided B (neither: the packed GEMM);
  // K below, at and past a vector and four-column groups with a remainder; a GPT-2 shape.
  const std::vector<Dims> rows = {{1, 1, 1},   {1, 3, 7},     {1, 5, 8},     {1, 7, 17},
                                  {1, 50, 33}, {1, 2304, 768}, {1, 769, 3072}};
  with_1_and_2_threads([&] {
    for (Dims d : rows)
      for (Layout la : {Layout::RowMajor, Layout::Strided})
        for (Layout lb : {Layout::Transposed, Layout::RowMajor, Layout::Padded, Layout::Strided}) {
          check_against_naive<float>(d, la, lb);
          check_against_naive<double>(d, la, lb);
        }
  });
}

TEST_CASE("gemv: accumulate adds into C", "[cpu][gemm]") {
  const int64_t N = 9, K = 13;
  std::vector<float> A(K), B(K * N), C(N, 1.0f), ref(N, 0.0f);
  for (int64_t k = 0; k < K; ++k) A[size_t(k)] = float(k % 5) - 2.0f;
  for (int64_t i = 0; i < K * N; ++i) B[size_t(i)] = float(i % 7) - 3.0f;
  cpu::gemm_naive<float>(1, N, K, A.data(), K, 1, B.data(), 1, K, ref.data(), N);  // B = Wᵀ, W [N, K]
  cpu::gemm<float>(1, N, K, A.data(), K, 1, B.data(), 1, K, C.data(), N, cpu::Triangle::kNone, true);
  for (int64_t n = 0; n < N; ++n) CHECK(C[size_t(n)] == ref[size_t(n)] + 1.0f);
}
