// models/sampling: the next token from the last logits, nanoGPT's rule (temperature, top_k).
#include "tests/catch.h"

#include "helpers.h"
#include "models/sampling.h"

using namespace attic;
using namespace attic::models;

TEST_CASE("sample_next: temperature 0 is argmax, and a tiny one is its limit, never NaN",
          "[models][sampling]") {
  const Tensor logits = tensor({{1.0, 3.0, 2.0}, {-5.0, -7.0, -6.0}});
  Generator gen(7);
  const std::vector<int64_t> greedy = sample_next(logits, 0, 0, gen).to_vector<int64_t>();
  CHECK(greedy == std::vector<int64_t>{1, 0});
  // 3 / 1e-320 overflows a double: divided first, every logit would be inf, the softmax NaN,
  // and each draw would fall through to the last token.
  for (const double t : {1e-300, 1e-320, 4.9e-324}) {
    INFO(t);
    for (int i = 0; i < 20; ++i) CHECK(sample_next(logits, t, 0, gen).to_vector<int64_t>() == greedy);
    CHECK(sample_next(logits, t, 2, gen).to_vector<int64_t>() == greedy);
  }
  // An ordinary temperature still draws from the whole distribution.
  std::vector<int> seen(3, 0);
  const Tensor flat = tensor({{0.0, 0.0, 0.0}});
  for (int i = 0; i < 300; ++i) ++seen[size_t(sample_next(flat, 1.0, 0, gen).item<int64_t>())];
  for (int c : seen) CHECK(c > 50);
}
