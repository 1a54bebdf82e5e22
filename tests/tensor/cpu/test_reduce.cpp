// The block sum of tensor/cpu/reduce.cpp (sum_middle: a contiguous in [O, R, Q] summed over
// R) against the general strided reduction of the same file, which the same sum takes when
// its input is not contiguous. Both add each output's terms in the order of r, in double,
// so they must agree bit for bit, at any thread count.
#include "tests/catch.h"

#include <cstdint>
#include <random>
#include <vector>

#include "normal_values.h"
#include "ops/ops.h"
#include "tensor/threads.h"

using namespace attic;
using attic::testing::normal_values;

namespace {

// in [O, R, Q] summed over R, once through the block sum (contiguous) and once through the
// strided loop: the same values as every other element of a [O, R, Q, 2] tensor.
void check_block_sum(int64_t O, int64_t R, int64_t Q) {
  std::mt19937 rng(uint32_t(O * 1000003 + R * 1009 + Q));
  const std::vector<float> v = normal_values<float>(O * R * Q * 2, 0.5, 1.0, rng);
  const Tensor wide = from_vector(v, {O, R, Q, 2});
  const Tensor strided = wide.select(3, 0);  // [O, R, Q], strides (2 R Q, 2 Q, 2)
  const Tensor dense = strided.contiguous();
  REQUIRE_FALSE(strided.is_contiguous());
  const Tensor want = sum(strided, {1});
  const Tensor got = sum(dense, {1});
  REQUIRE(got.shape() == std::vector<int64_t>{O, Q});
  const float* g = got.data_ptr<float>();
  const float* w = want.contiguous().data_ptr<float>();
  int64_t differ = 0;
  for (int64_t i = 0; i < O * Q; ++i) differ += g[i] != w[i];
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("block sum equals the strided sum bit for bit", "[tensor][cpu][reduce]") {
  const int saved = num_threads();
  for (int threads : {1, 2, 3}) {
    set_num_threads(threads);
    INFO("threads " << threads);
    // One wide sum (a [k, n] gradient summed over a batch of 4): several 512-column blocks
    // and a partial one; a narrow one; more rows than columns; many o with a partial block;
    // O > 1 with Q a multiple of the block; sums over a dim of size 1 (a copy), small and
    // split across threads.
    for (auto [O, R, Q] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
             {1, 4, 3 * 512 + 7}, {1, 3, 5}, {1, 1000, 33}, {37, 6, 700}, {3, 2, 1024},
             {1, 2, 70000}, {300, 1, 7}, {70000, 1, 1}}) {
      INFO("O " << O << " R " << R << " Q " << Q);
      check_block_sum(O, R, Q);
    }
  }
  set_num_threads(saved);
}

TEST_CASE("block sum by hand", "[tensor][cpu][reduce]") {
  // [1, 3, 2] over the middle: [1+3+5, 2+4+6]; [2, 2, 1] over the middle: row sums.
  const Tensor x = from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {1, 3, 2});
  const Tensor s = sum(x, {1});
  CHECK(s.data_ptr<float>()[0] == 9.0f);
  CHECK(s.data_ptr<float>()[1] == 12.0f);
  const Tensor y = from_vector(std::vector<float>{1, 2, 3, 4}, {2, 2, 1});
  const Tensor r = sum(y, {1});
  CHECK(r.data_ptr<float>()[0] == 3.0f);
  CHECK(r.data_ptr<float>()[1] == 7.0f);
}
