// The cyclic Jacobi eigen-solver against spectra known in advance: diagonal matrices, the
// 2×2 closed form, Q·diag(λ)·Qᵀ for an orthogonal Q built from Householder reflections,
// repeated and zero eigenvalues, a Gram matrix's trace, and bad input.
#include <algorithm>
#include <cmath>
#include <random>

#include "helpers.h"
#include "util/symmetric_eigen.h"

using namespace attic;

namespace {

// Q diag(lambda) Qᵀ with Q = H_1 H_2 H_3, each H = I − 2 v vᵀ / vᵀv a reflection (so Q is
// orthogonal and the eigenvalues are exactly lambda).
std::vector<double> with_spectrum(const std::vector<double>& lambda, uint32_t seed) {
  const size_t n = lambda.size();
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> q(n * n, 0.0);
  for (size_t i = 0; i < n; ++i) q[i * n + i] = 1;
  for (int r = 0; r < 3; ++r) {
    std::vector<double> v(n);
    double vv = 0;
    for (double& x : v) {
      x = normal(rng);
      vv += x * x;
    }
    std::vector<double> next(n * n);  // Q ← Q H: q_ij − 2 (Σ_k q_ik v_k) v_j / vv
    for (size_t i = 0; i < n; ++i) {
      double qv = 0;
      for (size_t k = 0; k < n; ++k) qv += q[i * n + k] * v[k];
      for (size_t j = 0; j < n; ++j) next[i * n + j] = q[i * n + j] - 2 * qv * v[j] / vv;
    }
    q = next;
  }
  std::vector<double> a(n * n, 0.0);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j)
      for (size_t k = 0; k < n; ++k) a[i * n + j] += q[i * n + k] * lambda[k] * q[j * n + k];
  for (size_t i = 0; i < n; ++i)  // exactly symmetric, as a Gram matrix is
    for (size_t j = 0; j < i; ++j) a[i * n + j] = a[j * n + i];
  return a;
}

}  // namespace

TEST_CASE("Jacobi: a diagonal matrix is its own spectrum, in ascending order", "[eigen]") {
  const EigenResult r = symmetric_eigenvalues({3, 0, 0, 0, -1, 0, 0, 0, 2}, 3);
  CHECK(r.values == std::vector<double>{-1, 2, 3});
  CHECK(r.sweeps == 0);
  CHECK(symmetric_eigenvalues({5}, 1).values == std::vector<double>{5});
}

TEST_CASE("Jacobi: the 2x2 closed form", "[eigen]") {
  // [[2, 1], [1, 2]] has eigenvalues 1 and 3; [[a, b], [b, c]] in general
  // (a + c)/2 ∓ √(((a − c)/2)² + b²).
  CHECK_THAT(symmetric_eigenvalues({2, 1, 1, 2}, 2).values, testing::ApproxValues({1, 3}, 1e-14));
  const double a = 0.3, b = -1.7, c = 4.1, mid = (a + c) / 2, rad = std::sqrt((a - c) * (a - c) / 4 + b * b);
  CHECK_THAT(symmetric_eigenvalues({a, b, b, c}, 2).values, testing::ApproxValues({mid - rad, mid + rad}, 1e-13));
}

TEST_CASE("Jacobi: Q diag(λ) Qᵀ gives back λ, with repeats, zeros and negatives", "[eigen]") {
  const std::vector<std::vector<double>> spectra = {
      {1, 2, 3, 4, 5},
      {0, 0, 0, 1, 7},              // rank 2, like a Gram matrix of 2 directions
      {-2, -2, 1, 1, 1, 9},         // repeated values
      {1e-6, 1e-3, 1, 1e3},          // spread over nine decades
  };
  for (size_t s = 0; s < spectra.size(); ++s) {
    INFO("spectrum " << s);
    std::vector<double> want = spectra[s];
    const EigenResult r = symmetric_eigenvalues(with_spectrum(want, uint32_t(s + 1)), int64_t(want.size()));
    std::sort(want.begin(), want.end());
    CHECK_THAT(r.values, Catch::Matchers::Approx(want).margin(1e-9 * 1e3));
    CHECK(r.sweeps >= 1);
    CHECK(r.sweeps < 15);
  }
}

TEST_CASE("Jacobi: a 40x40 Gram matrix: eigenvalues >= 0 up to rounding, sum = trace", "[eigen]") {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal;
  const int64_t T = 40, C = 12;  // rank 12: 28 eigenvalues are 0
  std::vector<double> h(size_t(T * C)), g(size_t(T * T), 0.0);
  for (double& x : h) x = normal(rng);
  double trace = 0;
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j < T; ++j) {
      for (int64_t c = 0; c < C; ++c) g[size_t(i * T + j)] += h[size_t(i * C + c)] * h[size_t(j * C + c)];
      if (i == j) trace += g[size_t(i * T + i)];
    }
  const std::vector<double> v = symmetric_eigenvalues(g, T).values;
  double sum = 0;
  for (double x : v) sum += x;
  CHECK(sum == Approx(trace).epsilon(1e-12));
  for (size_t i = 0; i < 28; ++i) CHECK(std::abs(v[i]) < 1e-10 * v.back());
  CHECK(v[28] > 1e-3);
}

TEST_CASE("Jacobi: bad input is a clear error", "[eigen]") {
  CHECK(testing::error_message([] { symmetric_eigenvalues({1, 2, 3}, 2); }) ==
        "symmetric_eigenvalues: a has 3 entries, n = 2 needs n·n");
  CHECK(testing::error_message([] { symmetric_eigenvalues({1, 2, 3, 4}, 2); }) ==
        "symmetric_eigenvalues: a[0][1] = 2 but a[1][0] = 3");
  CHECK(testing::error_message([] { symmetric_eigenvalues({1, NAN, NAN, 1}, 2); }).find("holds nan") !=
        std::string::npos);
}
