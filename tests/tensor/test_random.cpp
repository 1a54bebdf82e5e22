// The seedable generator and the random factories.
#include <cmath>

#include "helpers.h"
#include "tensor/random.h"

using namespace attic;
using attic::testing::values;

TEST_CASE("manual_seed makes randn repeat exactly", "[random]") {
  manual_seed(1337);
  const std::vector<double> a = values(randn({100}));
  manual_seed(1337);
  const std::vector<double> b = values(randn({100}));
  CHECK(a == b);
  manual_seed(1338);
  CHECK(values(randn({100})) != a);
}

TEST_CASE("randn has mean 0 and variance 1", "[random]") {
  manual_seed(0);
  const std::vector<double> v = values(randn({200000}, kFloat64));
  double m = 0, s = 0;
  for (double x : v) m += x;
  m /= double(v.size());
  for (double x : v) s += (x - m) * (x - m);
  s /= double(v.size());
  // standard errors: 1/sqrt(n) = 0.0022 for the mean, about 0.003 for the variance
  CHECK(std::abs(m) < 0.01);
  CHECK(std::abs(s - 1) < 0.015);
}

TEST_CASE("rand lies in 0 to 1 and randint between low and high", "[random]") {
  manual_seed(7);
  for (double x : values(rand({10000}))) {
    REQUIRE(x >= 0);
    REQUIRE(x < 1);
  }
  Tensor r = randint(-3, 4, {10000});
  CHECK(r.dtype() == kInt64);
  std::vector<int> seen(7, 0);
  for (double x : values(r)) {
    REQUIRE(x >= -3);
    REQUIRE(x < 4);
    seen[size_t(x + 3)]++;
  }
  for (int c : seen) CHECK(c > 1200);  // each of 7 values expects ~1429
}

TEST_CASE("a Generator's state can be saved and restored", "[random]") {
  Generator g(42);
  g.next_u64();
  const auto saved = g.state();
  const double a = g.normal(), b = g.uniform();
  g.set_state(saved);
  CHECK(g.normal() == a);
  CHECK(g.uniform() == b);
}

TEST_CASE("random factories reject integer dtypes where they make no sense", "[random]") {
  CHECK(attic::testing::error_message([] { randn({2}, kInt64); }) ==
        "randn: needs a floating dtype, got int64");
  CHECK(attic::testing::error_message([] { randint(3, 3, {2}); }) ==
        "randint: low 3 must be below high 3");
}
