// The CPU's elementwise kernels over strided and broadcast operands split their rows across
// threads once a tensor is large (tensor/cpu/elementwise.cpp, strided_loop). Each result is
// checked against a plain loop over the same numbers, with more threads than rows need.
#include "helpers.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

struct Threads {  // sets the pool's size for one test and gives the old one back
  int before = num_threads();
  explicit Threads(int n) { set_num_threads(n); }
  ~Threads() { set_num_threads(before); }
};

}  // namespace

TEST_CASE("a large broadcast product over a transposed operand equals a plain loop, on 4 threads",
          "[cpu][strided]") {
  Threads t(4);
  manual_seed(1);
  const Tensor a = randn({64, 129, 33}).transpose(1, 2);  // [64, 33, 129], not contiguous
  const Tensor b = randn({1, 33, 1});                     // broadcast over dims 0 and 2
  REQUIRE(a.numel() > 2 * 32768);
  const Tensor y = a * b;
  const std::vector<float> av = a.contiguous().to_vector<float>(), bv = b.to_vector<float>(),
                           yv = y.to_vector<float>();
  size_t wrong = 0;
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 33; ++j)
      for (int64_t k = 0; k < 129; ++k) {
        const size_t at = size_t((i * 33 + j) * 129 + k);
        wrong += yv[at] != av[at] * bv[size_t(j)];
      }
  CHECK(wrong == 0);
}

TEST_CASE("a large unary op over a transposed operand equals a plain loop, on 3 threads",
          "[cpu][strided]") {
  Threads t(3);
  manual_seed(2);
  const Tensor a = randn({300, 517}).t();  // [517, 300], not contiguous
  const std::vector<float> want = a.contiguous().to_vector<float>(), got = neg(a).to_vector<float>();
  size_t wrong = 0;
  for (size_t i = 0; i < want.size(); ++i) wrong += got[i] != -want[i];
  CHECK(wrong == 0);
}
