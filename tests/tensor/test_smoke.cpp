#include "tests/catch.h"

#include "ops/ops.h"

using namespace attic;

TEST_CASE("smoke: add and matmul", "[tensor]") {
  Tensor a = tensor({{1, 2}, {3, 4}});
  Tensor b = tensor({{5, 6}, {7, 8}});
  CHECK((a + b).to_vector<float>() == std::vector<float>{6, 8, 10, 12});
  CHECK(matmul(a, b).to_vector<float>() == std::vector<float>{19, 22, 43, 50});
}
