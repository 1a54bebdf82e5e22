#include "tests/catch.h"

#include <cstdint>
#include <vector>

#include "tensor/cpu/gemm_pack.h"

using namespace attic::cpu::gemm_detail;

namespace {

// A rows x cols matrix whose element (r, c) is 1000 r + c + 1 (no zeros, so a zero in a packed
// buffer is always padding), stored row-major (row stride cols) or transposed (column stride
// rows), and its (row stride, column stride).
template <class T>
struct Numbered {
  std::vector<T> data;
  int64_t rs, cs;
  Numbered(int64_t rows, int64_t cols, bool transposed) : data(size_t(rows * cols)) {
    rs = transposed ? 1 : cols;
    cs = transposed ? rows : 1;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) data[size_t(r * rs + c * cs)] = value(r, c);
  }
  static T value(int64_t r, int64_t c) { return T(1000 * r + c + 1); }
};

// pack_b's layout written out: Bp[s][k][j] = B(k, s NR + j), zero past nc, for the tile
// family NV.
template <class T, int NV = kDefaultNV>
void check_pack_b(int64_t kc, int64_t nc, bool transposed) {
  constexpr int NR = Blocking<T, NV>::NR;
  const Numbered<T> B(kc, nc, transposed);
  const int64_t strips = (nc + NR - 1) / NR;
  std::vector<T> Bp(size_t(strips * kc * NR), T(-1));
  pack_b<T, NV>(kc, nc, B.data.data(), B.rs, B.cs, Bp.data());
  int64_t wrong = 0;
  for (int64_t s = 0; s < strips; ++s)
    for (int64_t k = 0; k < kc; ++k)
      for (int64_t j = 0; j < NR; ++j) {
        const int64_t col = s * NR + j;
        const T want = col < nc ? Numbered<T>::value(k, col) : T(0);
        wrong += Bp[size_t((s * kc + k) * NR + j)] != want;
      }
  CHECK(wrong == 0);
}

}  // namespace

// The transposed B (x Wᵀ reads W this way) goes through 16 x 16 (AVX-512) or 8 x 8 (AVX)
// register transposes for whole strips and whole blocks of k; the rest of k, partial strips
// and other layouts take the scalar loop. Each shape below mixes the two.
TEST_CASE("pack_b lays B out in NR-wide k-major strips, zero-padded", "[gemm][pack]") {
  const bool transposed = GENERATE(false, true);
  INFO("NR " << Blocking<float>::NR << (transposed ? ", B transposed" : ", B row-major"));
  for (auto [kc, nc] : std::vector<std::pair<int64_t, int64_t>>{
           {1, 1}, {16, 32}, {37, 32}, {64, 70}, {256, 48}, {5, 3}, {33, 100}}) {
    INFO("kc " << kc << ", nc " << nc);
    check_pack_b<float>(kc, nc, transposed);
    check_pack_b<double>(kc, nc, transposed);
    if constexpr (kWideNV != 0) check_pack_b<float, kWideNV>(kc, nc, transposed);
  }
}

namespace {

// pack_a_rows' and pack_a_kmajor's layouts written out, for the tile family NV.
template <int NV>
void check_pack_a(bool transposed) {
  constexpr int MR = Blocking<float, NV>::MR;
  const int64_t kc = 19;
  for (int64_t mc : {int64_t(1), int64_t(MR), int64_t(2 * MR + 3)}) {
    INFO("mc " << mc << (transposed ? ", A column-major" : ", A row-major"));
    const Numbered<float> A(mc, kc, transposed);
    const int64_t strips = (mc + MR - 1) / MR;
    auto want = [&](int64_t s, int64_t i, int64_t k) {
      return s * MR + i < mc ? Numbered<float>::value(s * MR + i, k) : 0.0f;
    };

    // Row-major strips: Ap[s][i][k], rows kPitch apart (the pitch's padding is not written).
    std::vector<float> rows(size_t(strips * MR * kPitch<float>), -1.0f);
    pack_a_rows<float, NV>(mc, kc, A.data.data(), A.rs, A.cs, rows.data());
    int64_t wrong = 0;
    for (int64_t s = 0; s < strips; ++s)
      for (int64_t i = 0; i < MR; ++i)
        for (int64_t k = 0; k < kc; ++k)
          wrong += rows[size_t((s * MR + i) * kPitch<float> + k)] != want(s, i, k);
    CHECK(wrong == 0);

    // k-major strips: Ap[s][k][i], each strip MR * kc values.
    std::vector<float> kmajor(size_t(strips * MR * kc), -1.0f);
    pack_a_kmajor<float, NV>(mc, kc, A.data.data(), A.rs, A.cs, kmajor.data());
    wrong = 0;
    for (int64_t s = 0; s < strips; ++s)
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t i = 0; i < MR; ++i) wrong += kmajor[size_t((s * kc + k) * MR + i)] != want(s, i, k);
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("pack_a_rows and pack_a_kmajor lay A out in MR-row strips, zero-padded", "[gemm][pack]") {
  const bool transposed = GENERATE(false, true);
  check_pack_a<kDefaultNV>(transposed);
  if constexpr (kWideNV != 0) check_pack_a<kWideNV>(transposed);
}
