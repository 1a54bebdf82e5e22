// The check of chapter 20's exercise: the one-pass prefix against the two-pass definition
// (the maximum of each prefix found first), on small and on huge scores.
#include "tests/catch.h"

#include <cmath>
#include <random>

#include "running_max.h"

namespace {

// The definition, in two passes per t: O(T²·D), the reference.
std::vector<double> reference(const std::vector<double>& s, const std::vector<double>& v, int D) {
  const size_t T = s.size();
  std::vector<double> y(T * D);
  for (size_t t = 0; t < T; ++t) {
    double m = s[0];
    for (size_t j = 1; j <= t; ++j) m = std::max(m, s[j]);
    double den = 0.0;
    for (size_t j = 0; j <= t; ++j) den += std::exp(s[j] - m);
    for (int d = 0; d < D; ++d) {
      double num = 0.0;
      for (size_t j = 0; j <= t; ++j) num += std::exp(s[j] - m) * v[j * D + d];
      y[t * D + d] = num / den;
    }
  }
  return y;
}

// s [T] uniform in [-scale, scale], v [T, D] normal, from a fixed seed.
void draw(size_t T, int D, double scale, unsigned seed, std::vector<double>& s, std::vector<double>& v) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  std::normal_distribution<double> n;
  s.resize(T);
  v.resize(T * D);
  for (double& x : s) x = u(gen);
  for (double& x : v) x = n(gen);
}

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    REQUIRE(std::isfinite(got[i]));
    CHECK(got[i] == Approx(want[i]).epsilon(1e-12).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("the first row is v_0, and equal scores give the running mean") {
  const std::vector<double> s = {0.5, 0.5, 0.5}, v = {1, 10, 3, 20, 5, 30};
  check_close(causal_softmax_prefix(s, v, 2), {1, 10, 2, 15, 3, 20});
}

TEST_CASE("small scores: the one-pass prefix equals the definition") {
  std::vector<double> s, v;
  draw(50, 4, 3.0, 1, s, v);
  check_close(causal_softmax_prefix(s, v, 4), reference(s, v, 4));
}

TEST_CASE("scores of ±800, where e^s overflows a double, still give the definition") {
  std::vector<double> s, v;
  draw(64, 3, 800.0, 2, s, v);
  check_close(causal_softmax_prefix(s, v, 3), reference(s, v, 3));
}

TEST_CASE("rising scores, a new maximum at every step") {
  std::vector<double> s(40), v(40);
  for (size_t t = 0; t < 40; ++t) {
    s[t] = 30.0 * double(t);
    v[t] = double(t);
  }
  check_close(causal_softmax_prefix(s, v, 1), reference(s, v, 1));
}
