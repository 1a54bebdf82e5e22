// The Rényi entropy of a Gram spectrum (lab/renyi_entropy.h): rank 1 gives 0, T
// orthogonal rows of equal norm give ln T for every α, the p's sum to 1, values worked out
// by hand, the centred form, and the per-block entropies of a GPT.
#include <cmath>

#include "helpers.h"
#include "models/gpt.h"
#include "lab/renyi_entropy.h"

using namespace attic;
using namespace attic::lab;

TEST_CASE("Rényi entropy: a rank-1 H gives 0", "[entropy]") {
  // Every token a multiple of one vector: G = H Hᵀ has one non-zero eigenvalue.
  const Tensor u = randn({1, 16}, kFloat64);
  const Tensor h = from_vector(std::vector<double>{1, -2, 0.5, 3, 0.1}, {5, 1}) * u;  // [5, 16]
  const std::vector<double> p = gram_spectrum(h);
  CHECK(p.back() == Approx(1.0).epsilon(1e-12));
  for (double alpha : {0.5, 0.99, 1.0, 2.0}) CHECK(std::abs(renyi_entropy(p, alpha)) < 1e-9);
}

TEST_CASE("Rényi entropy: T orthogonal rows of equal norm give ln T for every α", "[entropy]") {
  const int64_t T = 7, C = 10;
  std::vector<double> v(size_t(T * C), 0.0);
  for (int64_t t = 0; t < T; ++t) v[size_t(t * C + (3 * t) % C)] = 2.5;  // distinct axes
  const std::vector<double> p = gram_spectrum(from_vector(v, {T, C}));
  for (double alpha : {0.5, 0.99, 1.0, 2.0, 5.0}) {
    INFO("alpha " << alpha);
    CHECK(renyi_entropy(p, alpha) == Approx(std::log(double(T))).epsilon(1e-12));
  }
}

TEST_CASE("Rényi entropy: the p's sum to 1, and a spectrum worked out by hand", "[entropy]") {
  const Tensor h = randn({9, 24});
  const std::vector<double> p = gram_spectrum(h);
  double sum = 0;
  for (double x : p) {
    sum += x;
    CHECK(x >= 0);
  }
  CHECK(sum == Approx(1.0).epsilon(1e-12));
  // Rows (3, 0) and (0, 4): G = diag(9, 16), p = (9/25, 16/25).
  const std::vector<double> q = gram_spectrum(from_vector(std::vector<double>{3, 0, 0, 4}, {2, 2}));
  CHECK_THAT(q, testing::ApproxValues({0.36, 0.64}, 1e-12));
  // S_2 = −ln(0.36² + 0.64²) = −ln 0.5392; S_1 = −(0.36 ln 0.36 + 0.64 ln 0.64).
  CHECK(renyi_entropy(q, 2.0) == Approx(-std::log(0.5392)).epsilon(1e-12));
  CHECK(renyi_entropy(q, 1.0) == Approx(-(0.36 * std::log(0.36) + 0.64 * std::log(0.64))).epsilon(1e-12));
  // α = 0.99 sits just above Shannon's value for this p (S_α falls as α grows).
  CHECK(renyi_entropy(q, 0.99) > renyi_entropy(q, 1.0));
  CHECK(renyi_entropy(q, 0.99) - renyi_entropy(q, 1.0) < 1e-3);
}

TEST_CASE("Rényi entropy, centred: the shared offset and the tokens' lengths do not count", "[entropy]") {
  // Tokens = a large common offset + small orthogonal parts of different lengths. Raw, the
  // offset dominates (near rank 1, S near 0); centred and normalized, the parts are what is
  // left.
  const int64_t T = 4, C = 8;
  std::vector<double> v(size_t(T * C), 0.0);
  for (int64_t t = 0; t < T; ++t) {
    v[size_t(t * C + 7)] = 100;                  // the offset
    v[size_t(t * C + t)] = 0.5 * double(t + 1);  // lengths 0.5, 1, 1.5, 2
  }
  const Tensor h = from_vector(v, {T, C});
  CHECK(renyi_entropy(gram_spectrum(h), 0.99) < 0.01);
  const double centred = renyi_entropy(gram_spectrum(h, true), 0.99);
  CHECK(centred > 0.9 * std::log(3.0));  // centring removes one dimension: at most ln 3
  CHECK(centred <= std::log(3.0) + 1e-9);
}

TEST_CASE("Rényi entropy: bad input", "[entropy]") {
  CHECK(testing::error_message([] { gram_spectrum(zeros({3, 4})); }) ==
        "gram_spectrum: H is all zeros, its spectrum has no mass");
  CHECK(testing::error_message([] { gram_spectrum(zeros({3})); }) == "gram_spectrum: H must be [T, C], got [3]");
  CHECK(testing::error_message([] { renyi_entropy({1.0}, 0); }) == "renyi_entropy: alpha must be positive, got 0");
}

TEST_CASE("block_entropies: one value per block and sequence, each the entropy of that row", "[entropy]") {
  models::GPTConfig c;
  c.block_size = 8;
  c.vocab_size = 11;
  c.n_layer = 3;
  c.n_head = 2;
  c.n_embd = 16;
  models::GPT m(c);
  m.eval();
  const Tensor ids = from_vector(std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 1}, {2, 6});
  const auto s = block_entropies(m, ids);
  REQUIRE(s.size() == 3);
  REQUIRE(s[0].size() == 2);
  const std::vector<Tensor> outs = m.block_outputs(ids.narrow(0, 1, 1));
  CHECK(s[2][1] == Approx(renyi_entropy(gram_spectrum(outs[2].select(0, 0)), 0.99)).epsilon(1e-9));
  for (const auto& layer : s)
    for (double x : layer) CHECK((x > 0 && x <= std::log(6.0) + 1e-9));
}
