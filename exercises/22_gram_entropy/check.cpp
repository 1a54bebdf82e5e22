// The check of chapter 22's exercise: the entropy's two ends (collapsed tokens give 0,
// orthogonal equal-norm tokens give ln T), its invariance to rotating the channels, and
// attic's own gram_spectrum + renyi_entropy on random tokens.
#include "tests/catch.h"

#include <cmath>

#include "gram_entropy.h"
#include "lab/renyi_entropy.h"
#include "ops/ops.h"

using namespace attic;

TEST_CASE("collapsed tokens, all on one line, have entropy 0") {
  std::vector<double> h;
  for (int t = 0; t < 6; ++t)
    for (int c = 0; c < 4; ++c) h.push_back((t + 1) * (c - 1.5));  // token t = (t+1)·u
  CHECK(gram_renyi_entropy(h, 6, 4, 0.99) == Approx(0.0).margin(1e-9));
}

TEST_CASE("orthogonal tokens of equal norm have entropy ln T, for every alpha") {
  const int T = 5, C = 7;
  std::vector<double> h(T * C, 0.0);
  for (int t = 0; t < T; ++t) h[t * C + t] = 2.0;  // token t = 2 e_t
  for (double alpha : {0.5, 0.99, 2.0})
    CHECK(gram_renyi_entropy(h, T, C, alpha) == Approx(std::log(double(T))).epsilon(1e-9));
}

TEST_CASE("the same as attic's gram_spectrum and renyi_entropy on random tokens") {
  manual_seed(7);
  const Tensor h = randn({9, 16}, TensorOptions(kFloat64));
  const std::vector<double> values = h.to_vector<double>();
  for (double alpha : {0.5, 0.99, 3.0}) {
    const double want = lab::renyi_entropy(lab::gram_spectrum(h), alpha);
    INFO("alpha " << alpha);
    CHECK(gram_renyi_entropy(values, 9, 16, alpha) == Approx(want).epsilon(1e-8));
  }
}
