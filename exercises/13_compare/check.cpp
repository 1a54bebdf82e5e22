// The check of chapter 13's exercise: compare() on crafted pairs whose answers are known
// (float64, so that the differences are exactly the ones written).
#include "tests/catch.h"

#include <cmath>
#include <limits>

#include "compare.h"
#include "tensor/error.h"

using namespace attic;

TEST_CASE("equal tensors: zero error, close") {
  const Tensor b = tensor({1.0, -2.0, 3.0, 0.5}, kFloat64);
  const Comparison c = compare(b.clone(), b, 1e-5);
  CHECK(c.max_abs == 0.0);
  CHECK(c.rel == 0.0);
  CHECK(c.close);
}

TEST_CASE("max_abs is the largest difference, rel divides it by max |b|") {
  const Tensor b = tensor({1.0, -4.0, 2.0}, kFloat64);
  const Tensor a = tensor({1.5, -4.0, 1.0}, kFloat64);  // differences 0.5, 0, 1
  const Comparison c = compare(a, b, 1e-5);
  CHECK(c.max_abs == Approx(1.0));
  CHECK(c.rel == Approx(1.0 / (4.0 + 1e-8)));
  CHECK_FALSE(c.close);
}

TEST_CASE("the rule is relative: scaling both tensors does not change rel") {
  const Tensor b = tensor({{0.25, -1.0}, {3.0, 2.0}}, kFloat64);
  const Tensor a = b + tensor({{0.0, 1e-6}, {-2e-6, 0.0}}, kFloat64);
  for (double s : {1e-3, 1.0, 1e3}) {
    INFO("scale " << s);
    const Comparison c = compare(a * s, b * s, 1e-5);
    CHECK(c.max_abs == Approx(2e-6 * s).epsilon(1e-3));
    CHECK(c.rel == Approx(2e-6 / 3.0).epsilon(1e-3));
    CHECK(c.close);
  }
}

TEST_CASE("tol decides close, strictly") {
  const Tensor b = tensor({2.0, 0.0}, kFloat64);
  const Tensor a = tensor({2.0 + 2e-4, 0.0}, kFloat64);  // rel = 1e-4 up to float rounding
  CHECK(compare(a, b, 2e-4).close);
  CHECK_FALSE(compare(a, b, 5e-5).close);
}

TEST_CASE("an all-zero reference does not divide by zero") {
  const Tensor b = zeros({3}, kFloat64);
  CHECK(compare(zeros({3}, kFloat64), b, 1e-5).rel == 0.0);
  CHECK(compare(zeros({3}, kFloat64), b, 1e-5).close);
  const Comparison c = compare(full({3}, 1e-3, kFloat64), b, 1e-5);
  CHECK(std::isfinite(c.rel));
  CHECK_FALSE(c.close);
}

TEST_CASE("a NaN anywhere is never close") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Tensor b = tensor({1.0, 2.0, 3.0}, kFloat64);
  for (int where = 0; where < 3; ++where) {
    INFO("NaN at " << where);
    Tensor a = b.clone();
    a[where].fill_(nan);
    const Comparison c = compare(a, b, 1e-5);
    CHECK(std::isnan(c.max_abs));
    CHECK(std::isnan(c.rel));
    CHECK_FALSE(c.close);
    CHECK_FALSE(compare(b, a, 1e-5).close);  // in the reference too
  }
}

TEST_CASE("different shapes are refused") {
  CHECK_THROWS_AS(compare(zeros({2, 3}), zeros({3, 2}), 1e-5), attic::Error);
  CHECK_THROWS_AS(compare(zeros({6}), zeros({2, 3}), 1e-5), attic::Error);
}
