// dropout: the statistics of the mask, eval mode, seeding, gradients, errors.
#include <cmath>

#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("dropout in eval mode, or with p = 0, returns x itself", "[ops][dropout]") {
  Tensor x = randn({4, 5});
  CHECK(dropout(x, 0.5, /*training=*/false).is_same(x));
  CHECK(dropout(x, 0.0, /*training=*/true).is_same(x));
}

TEST_CASE("dropout keeps about 1 - p of the elements, scaled by 1/(1-p)", "[ops][dropout]") {
  // 200,000 Bernoulli(0.7) draws: the kept fraction has std sqrt(0.7 * 0.3 / 2e5) ≈ 0.001
  const double p = 0.3;
  Generator gen(1234);
  Tensor y = dropout(ones({400, 500}), p, true, &gen);
  const std::vector<double> v = values(y);
  int64_t kept = 0;
  bool only_two_values = true;
  for (double e : v) {
    if (e != 0.0) ++kept;
    only_two_values &= e == 0.0 || std::abs(e - 1.0 / (1.0 - p)) < 1e-6;
  }
  CHECK(only_two_values);
  CHECK(double(kept) / double(v.size()) == Approx(1.0 - p).margin(0.01));
  // E[y] = x: the scaling keeps the mean at 1
  CHECK(mean(y).item<double>() == Approx(1.0).margin(0.02));
}

TEST_CASE("dropout: the same seed gives the same mask, another seed another", "[ops][dropout]") {
  Tensor x = ones({64, 64}, kFloat64);
  Generator g1(7), g2(7), g3(8);
  const std::vector<double> a = values(dropout(x, 0.5, true, &g1));
  CHECK(a == values(dropout(x, 0.5, true, &g2)));
  CHECK(a != values(dropout(x, 0.5, true, &g3)));
  // the generator moves on: a second draw from g1 differs from the first
  CHECK(a != values(dropout(x, 0.5, true, &g1)));
}

TEST_CASE("dropout draws from the default generator when given none", "[ops][dropout]") {
  Tensor x = ones({32, 32});
  manual_seed(42);
  const std::vector<double> a = values(dropout(x, 0.25, true));
  manual_seed(42);
  CHECK(a == values(dropout(x, 0.25, true)));
}

TEST_CASE("dropout_with_key keeps element i where Philox(key, i) reaches p", "[ops][dropout]") {
  // Key 0, counter 0: Random123's first known answer, words 6627e8d5 e169c58d bc57ac4c
  // 9b00dbd8. Their top 24 bits over 2^24 are u = 0.399, 0.881, 0.736, 0.606 for elements
  // 0..3: p = 0.5 keeps 1, 2, 3 (scaled by 2); p = 0.7 keeps 1 and 2 (scaled by 1/0.3).
  CHECK_THAT(values(dropout_with_key(ones({4}, kFloat64), 0.5, 0)),
             ApproxValues(std::vector<double>{0, 2, 2, 2}));
  CHECK_THAT(values(dropout_with_key(ones({2, 2}, kFloat64), 0.7, 0)),
             ApproxValues(std::vector<double>{0, 1 / 0.3, 1 / 0.3, 0}));
  // dropout() draws the key: one next_u64() per call, whatever the size
  Generator g(21), h(21);
  const Tensor y = dropout(ones({1000}, kFloat64), 0.5, true, &g);
  CHECK(values(y) == values(dropout_with_key(ones({1000}, kFloat64), 0.5, h.next_u64())));
  CHECK(g.state() == h.state());
}

TEST_CASE("dropout with p = 1 gives zeros", "[ops][dropout]") {
  Tensor y = dropout(randn({3, 4}), 1.0, true);
  CHECK_THAT(values(y), ApproxValues(std::vector<double>(12, 0.0)));
}

TEST_CASE("dropout gradient is g * mask / (1 - p)", "[ops][dropout]") {
  // with x = ones, y = mask / (1 - p), which is exactly dy/dx elementwise
  Tensor x = ones({10, 10}, kFloat64).requires_grad_();
  Generator gen(3);
  Tensor y = dropout(x, 0.4, true, &gen);
  sum(y).backward();
  CHECK_THAT(values(x.grad()), ApproxValues(values(y)));
}

TEST_CASE("dropout gradcheck with a fixed mask", "[ops][dropout][gradcheck]") {
  // gradcheck calls f many times: a fresh Generator(5) per call repeats the mask
  SECTION("contiguous") {
    Tensor x = leaf64({4, 6});
    CHECK(gradcheck([](const std::vector<Tensor>& v) {
      Generator gen(5);
      return dropout(v[0], 0.5, true, &gen);
    }, {x}));
  }
  SECTION("non-contiguous") {
    Tensor x = noncontiguous_leaf64({3, 5});
    CHECK(gradcheck([](const std::vector<Tensor>& v) {
      Generator gen(5);
      return dropout(v[0], 0.2, true, &gen);
    }, {x}));
  }
}

TEST_CASE("dropout of a non-contiguous float32 input", "[ops][dropout]") {
  // the mask is drawn in the row-major order of x's shape, whatever its strides
  Tensor x = randn({6, 7}).t();
  Generator g1(11), g2(11);
  const std::vector<double> a = values(dropout(x, 0.5, true, &g1));
  const std::vector<double> b = values(dropout(x.contiguous(), 0.5, true, &g2));
  CHECK(a == b);
}

TEST_CASE("dropout keeps the shape of 0-d and empty tensors", "[ops][dropout]") {
  Generator gen(1);
  CHECK(dropout(scalar_tensor(2.0), 0.5, true, &gen).shape() == Shape{});
  CHECK(dropout(zeros({0, 3}), 0.5, true, &gen).shape() == Shape{0, 3});
}

TEST_CASE("dropout rejects bad p and integer inputs", "[ops][dropout][errors]") {
  Tensor x = ones({2});
  CHECK(error_message([&] { dropout(x, 1.5, true); }) ==
        "dropout: probability p must be in [0, 1], got 1.5");
  CHECK(error_message([&] { dropout(x, -0.1, false); }) ==
        "dropout: probability p must be in [0, 1], got -0.1");
  CHECK(error_message([&] { dropout(ones({2}, kInt64), 0.5, true); }) ==
        "dropout: needs a floating tensor, got int64");
}
