// Chapter 8 exercise: cross_entropy_loops against attic's cross_entropy and its autograd.
#include "tests/catch.h"

#include <cmath>
#include <vector>

#include "cross_entropy_loops.h"
#include "ops/ops.h"

using namespace attic;

namespace {

// Runs both on logits [N, V] and targets [N]; loss and every gradient element must agree
// within 1e-5 absolute plus 1e-5 relative.
void compare(const Tensor& logits, const std::vector<int64_t>& targets) {
  const int64_t N = logits.size(0), V = logits.size(1);
  Tensor x = logits.detach().clone().requires_grad_();
  Tensor loss = cross_entropy(x, from_vector(targets, {N}));
  loss.backward();
  const std::vector<float> want = x.grad().to_vector<float>();

  CrossEntropyResult got = cross_entropy_loops(logits.to_vector<float>(), targets, V);
  INFO("attic's loss " << loss.item<float>() << ", yours " << got.loss);
  REQUIRE(std::isfinite(got.loss));
  CHECK(got.loss == Approx(loss.item<float>()).epsilon(1e-5).margin(1e-5));
  REQUIRE(got.dlogits.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("dlogits[" << i / size_t(V) << ", " << i % size_t(V) << "]");
    CHECK(got.dlogits[i] == Approx(want[i]).epsilon(1e-5).margin(1e-5));
  }
}

std::vector<int64_t> random_targets(int64_t N, int64_t V) {
  return randint(0, V, {N}).to_vector<int64_t>();
}

}  // namespace

TEST_CASE("cross_entropy_loops: small random logits") {
  manual_seed(1);
  compare(randn({16, 10}), random_targets(16, 10));
}

TEST_CASE("cross_entropy_loops: equal logits give ln V") {
  CrossEntropyResult r = cross_entropy_loops(std::vector<float>(3 * 10, 0.5f), {0, 4, 9}, 10);
  CHECK(r.loss == Approx(std::log(10.0)).epsilon(1e-6));
  CHECK(r.dlogits[4] == Approx(0.1 / 3).epsilon(1e-5));       // row 0, c = 4: p / N
  CHECK(r.dlogits[10 + 4] == Approx(-0.9 / 3).epsilon(1e-5)); // row 1, its target
}

TEST_CASE("cross_entropy_loops: large logits need the log-sum-exp trick") {
  manual_seed(2);
  // Rows 0..7 near +100 (e^100 overflows float32), rows 8..15 near -150 (every e^x
  // underflows to 0), each spread by N(0, 5²).
  Tensor shift = cat({full({8, 1}, 100.0), full({8, 1}, -150.0)}, 0);
  compare(randn({16, 10}) * 5.0 + shift, random_targets(16, 10));
}

TEST_CASE("cross_entropy_loops: ignore_index rows add nothing and are not counted") {
  manual_seed(3);
  std::vector<int64_t> t = random_targets(16, 10);
  for (size_t i = 0; i < t.size(); i += 4) t[i] = -100;  // a quarter ignored
  compare(randn({16, 10}) * 3.0, t);
  CrossEntropyResult r = cross_entropy_loops(randn({16, 10}).to_vector<float>(), t, 10);
  for (int64_t c = 0; c < 10; ++c) CHECK(r.dlogits[size_t(4 * 10 + c)] == 0.0f);
}
