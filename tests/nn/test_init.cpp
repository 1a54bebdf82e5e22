// nn::init: the statistics of each initializer, fans, seeding, errors.
#include <cmath>

#include "helpers.h"
#include "nn/init.h"

using namespace attic;
using namespace attic::testing;

namespace {

double mean_of(const Tensor& t) { return mean(t).item<double>(); }
double std_of(const Tensor& t) { return std::sqrt(var(t).item<double>()); }
double max_of(const Tensor& t) { return max(t).item<double>(); }
double min_of(const Tensor& t) { return min(t).item<double>(); }

}  // namespace

TEST_CASE("normal_ draws from N(mean, std^2)", "[nn][init]") {
  // 100,000 draws: the sample mean has std 2/√1e5 ≈ 0.0063, the sample std ≈ 2 · 0.0022
  Generator gen(1);
  Tensor t = empty({250, 400});
  nn::init::normal_(t, 3.0, 2.0, &gen);
  CHECK(mean_of(t) == Approx(3.0).margin(0.03));
  CHECK(std_of(t) == Approx(2.0).epsilon(0.01));
  // a normal has about 68.3% of its mass within one std of the mean
  const double inside = mean(le(abs(t - 3.0), 2.0).to(kFloat64)).item<double>();
  CHECK(inside == Approx(0.6827).margin(0.01));
  // defaults: N(0, 1)
  nn::init::normal_(t, 0.0, 1.0, &gen);
  CHECK(mean_of(t) == Approx(0.0).margin(0.015));
  CHECK(std_of(t) == Approx(1.0).epsilon(0.01));
}

TEST_CASE("uniform_ draws uniformly from a to b", "[nn][init]") {
  // U[-1, 3): mean 1, std (b - a)/√12 = 4/√12 = 1.154701
  Generator gen(2);
  Tensor t = empty({100000}, kFloat64);
  nn::init::uniform_(t, -1.0, 3.0, &gen);
  CHECK(min_of(t) >= -1.0);
  CHECK(max_of(t) < 3.0);
  CHECK(min_of(t) < -0.999);
  CHECK(max_of(t) > 2.999);
  CHECK(mean_of(t) == Approx(1.0).margin(0.02));
  CHECK(std_of(t) == Approx(4.0 / std::sqrt(12.0)).epsilon(0.01));
  // a quarter of U[-1, 3) lies in [-1, 0)
  CHECK(mean(lt(t, 0.0).to(kFloat64)).item<double>() == Approx(0.25).margin(0.01));
}

TEST_CASE("zeros_, ones_, constant_ fill every element", "[nn][init]") {
  Tensor t = randn({2, 3});
  nn::init::zeros_(t);
  CHECK_THAT(values(t), ApproxValues(std::vector<double>(6, 0.0)));
  nn::init::ones_(t);
  CHECK_THAT(values(t), ApproxValues(std::vector<double>(6, 1.0)));
  nn::init::constant_(t, -2.5);
  CHECK_THAT(values(t), ApproxValues(std::vector<double>(6, -2.5)));
}

TEST_CASE("initializers write into a parameter in place, outside the graph", "[nn][init]") {
  Tensor p = zeros({3, 4}).requires_grad_();
  TensorImpl* impl = p.impl();
  nn::init::uniform_(p, 1.0, 2.0);
  nn::init::constant_(p, 0.5);
  nn::init::xavier_normal_(p);
  CHECK(p.impl() == impl);
  CHECK(p.is_leaf());
  CHECK(p.requires_grad());
  CHECK(p.grad_fn() == nullptr);
  // a non-contiguous view is filled through its strides
  Tensor base = zeros({4, 3});
  Tensor view = base.t();
  nn::init::ones_(view);
  nn::init::uniform_(view, 5.0, 6.0);
  CHECK(min_of(base) >= 5.0);
}

TEST_CASE("fans of an out x in and an out x in x k weight", "[nn][init]") {
  // [out, in]: fan_in = in, fan_out = out
  CHECK(nn::init::fans(empty({3, 5})) == std::pair<int64_t, int64_t>{5, 3});
  // [out, in, k]: each weight sees k inputs per channel: fan_in = in·k, fan_out = out·k
  CHECK(nn::init::fans(empty({4, 2, 3})) == std::pair<int64_t, int64_t>{6, 12});
  CHECK(nn::init::fans(empty({4, 2, 3, 5})) == std::pair<int64_t, int64_t>{30, 60});
  // no elements: the fans still follow the formula (and nothing divides by zero)
  CHECK(nn::init::fans(empty({0, 5})) == std::pair<int64_t, int64_t>{5, 0});
  CHECK(nn::init::fans(empty({4, 0, 3})) == std::pair<int64_t, int64_t>{0, 12});
  CHECK(error_message([] { nn::init::fans(empty({7})); }) ==
        "init: fan in and fan out need a tensor of at least 2 dims, got [7]");
}

TEST_CASE("xavier_uniform_ and xavier_normal_ follow fan_in + fan_out", "[nn][init]") {
  // [200, 300]: a = √(6 / 500) = 0.109545; with gain 2, 0.219089. U[-a, a] has std a/√3.
  Generator gen(3);
  Tensor t = empty({200, 300});
  const double a = std::sqrt(6.0 / 500.0);
  nn::init::xavier_uniform_(t, 1.0, &gen);
  CHECK(max_of(abs(t)) <= a * (1 + 1e-6));
  CHECK(max_of(abs(t)) > 0.999 * a);
  CHECK(std_of(t) == Approx(a / std::sqrt(3.0)).epsilon(0.02));
  nn::init::xavier_uniform_(t, 2.0, &gen);
  CHECK(max_of(abs(t)) <= 2 * a * (1 + 1e-6));
  CHECK(max_of(abs(t)) > 0.999 * 2 * a);
  // σ = √(2 / 500) = 0.063246
  nn::init::xavier_normal_(t, 1.0, &gen);
  CHECK(std_of(t) == Approx(std::sqrt(2.0 / 500.0)).epsilon(0.02));
  CHECK(mean_of(t) == Approx(0.0).margin(0.002));
}

TEST_CASE("kaiming_uniform_ and kaiming_normal_ follow fan_in", "[nn][init]") {
  // [100, 400], a = 0: b = √(6 / 400) = 0.122474, σ = √(2 / 400) = 0.070711
  Generator gen(4);
  Tensor t = empty({100, 400});
  const double b = std::sqrt(6.0 / 400.0);
  nn::init::kaiming_uniform_(t, 0.0, &gen);
  CHECK(max_of(abs(t)) <= b * (1 + 1e-6));
  CHECK(max_of(abs(t)) > 0.999 * b);
  CHECK(std_of(t) == Approx(b / std::sqrt(3.0)).epsilon(0.02));
  nn::init::kaiming_normal_(t, 0.0, &gen);
  CHECK(std_of(t) == Approx(std::sqrt(2.0 / 400.0)).epsilon(0.02));
  // a = √5 (Linear's default): b = √(6 / (6 · 400)) = 1/20
  nn::init::kaiming_uniform_(t, std::sqrt(5.0), &gen);
  CHECK(max_of(abs(t)) <= 0.05 * (1 + 1e-6));
  CHECK(max_of(abs(t)) > 0.999 * 0.05);
  // [8, 25, 20]: fan_in = 25 · 20 = 500, σ = √(2 / 500) = 0.063246
  Tensor k = empty({8, 25, 20});
  nn::init::kaiming_normal_(k, 0.0, &gen);
  CHECK(std_of(k) == Approx(std::sqrt(2.0 / 500.0)).epsilon(0.04));
}

TEST_CASE("a seeded generator repeats the draws, the default one follows manual_seed",
          "[nn][init]") {
  Tensor a = empty({5, 7}), b = empty({5, 7});
  Generator g1(99), g2(99);
  nn::init::normal_(a, 0.0, 1.0, &g1);
  nn::init::normal_(b, 0.0, 1.0, &g2);
  CHECK(values(a) == values(b));
  nn::init::kaiming_uniform_(a, 0.0, &g1);
  nn::init::kaiming_uniform_(b, 0.0, &g2);
  CHECK(values(a) == values(b));
  // the generator moves on: the next draw differs
  const std::vector<double> before = values(a);
  nn::init::kaiming_uniform_(a, 0.0, &g1);
  CHECK(values(a) != before);
  // without a generator: the default one
  manual_seed(123);
  nn::init::uniform_(a);
  manual_seed(123);
  nn::init::uniform_(b);
  CHECK(values(a) == values(b));
}

TEST_CASE("float64 tensors are drawn at full precision", "[nn][init]") {
  // the draws are doubles; a float32 tensor rounds them, a float64 one keeps them
  Generator g1(8), g2(8);
  Tensor d = empty({64}, kFloat64), f = empty({64});
  nn::init::normal_(d, 0.0, 1.0, &g1);
  nn::init::normal_(f, 0.0, 1.0, &g2);
  CHECK(values(d) != values(f));
  CHECK_THAT(values(f), ApproxValues(values(d), 1e-6));
}

TEST_CASE("init rejects int64 and undefined tensors", "[nn][init][errors]") {
  Tensor i = zeros({3}, kInt64);
  CHECK(error_message([&] { nn::init::normal_(i); }) ==
        "init: needs a floating tensor, got int64");
  CHECK(error_message([&] { nn::init::uniform_(i); }) ==
        "init: needs a floating tensor, got int64");
  Tensor u;
  CHECK(error_message([&] { nn::init::normal_(u); }) == "init: got an undefined tensor");
  Tensor w = zeros({4, 2}, kInt64);
  CHECK(error_message([&] { nn::init::xavier_uniform_(w); }) ==
        "init: needs a floating tensor, got int64");
}
