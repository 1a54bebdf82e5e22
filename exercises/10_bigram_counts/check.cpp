// The check of chapter 10's exercise: the counts, the smoothed table and its loss on a small
// sequence worked out by hand, then on tiny Shakespeare, where the counted table is the
// best any bigram model can do on train.
#include "tests/catch.h"

#include <cmath>

#include "bigram.h"
#include "tensor/threads.h"

using namespace attic;

// ids 0 1 0 1 1 2: the pairs (0,1) (1,0) (0,1) (1,1) (1,2).
static const Tensor small_ids() { return from_vector(std::vector<int64_t>{0, 1, 0, 1, 1, 2}); }

TEST_CASE("bigram_counts counts each pair") {
  const Tensor counts = bigram_counts(small_ids(), 3);
  REQUIRE(counts.shape() == Shape{3, 3});
  CHECK(counts.dtype() == kFloat64);
  CHECK(counts.to_vector<double>() == std::vector<double>{0, 2, 0, 1, 1, 1, 0, 0, 0});
}

TEST_CASE("bigram_probs: rows are distributions, smoothed by alpha") {
  const Tensor counts = from_vector(std::vector<double>{0, 2, 0, 1, 1, 1, 0, 0, 0}, {3, 3});
  const Tensor P = bigram_probs(counts, 1.0);
  REQUIRE(P.shape() == Shape{3, 3});
  const std::vector<double> want = {1 / 5.0, 3 / 5.0, 1 / 5.0, 2 / 6.0, 2 / 6.0,
                                    2 / 6.0, 1 / 3.0, 1 / 3.0, 1 / 3.0};
  const std::vector<double> got = P.to_vector<double>();
  for (size_t i = 0; i < want.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-12));
  // alpha = 0: the maximum-likelihood rows, 0 where a pair was never seen
  const std::vector<double> mle = bigram_probs(counts, 0.0).narrow(0, 0, 2).to_vector<double>();
  CHECK(mle[0] == 0);
  CHECK(mle[1] == Approx(1.0).epsilon(1e-12));
  CHECK(mle[3] == Approx(1 / 3.0).epsilon(1e-12));
}

TEST_CASE("bigram_nll of the small sequence, worked out by hand") {
  const Tensor counts = from_vector(std::vector<double>{0, 2, 0, 1, 1, 1, 0, 0, 0}, {3, 3});
  // alpha = 1: (0,1) twice with p = 3/5, and (1,0), (1,1), (1,2) with p = 1/3 each.
  const double want = -(2 * std::log(3 / 5.0) + 3 * std::log(1 / 3.0)) / 5;
  CHECK(bigram_nll(bigram_probs(counts, 1.0), small_ids()) == Approx(want).epsilon(1e-12));
  // A pair of probability 0 makes the loss infinite.
  const Tensor unseen = from_vector(std::vector<int64_t>{0, 0});
  CHECK(std::isinf(bigram_nll(bigram_probs(counts, 0.0), unseen)));
}

TEST_CASE("tiny Shakespeare: the counted bigram table") {
  set_num_threads(1);
  const TextDataset ds = TextDataset::from_file(default_dataset_path());
  const int64_t V = ds.vocab_size();
  const Tensor counts = bigram_counts(ds.data(Split::Train), V);
  CHECK(sum(counts).item<double>() == 1003853);  // 1,003,854 train tokens make that many pairs
  // The maximum-likelihood table's loss on train: no bigram model scores lower there.
  CHECK(bigram_nll(bigram_probs(counts, 0.0), ds.data(Split::Train)) == Approx(2.4519).margin(5e-4));
  // On val it fails: 187 val pairs never occur in train, and ln 0 = -inf.
  CHECK(std::isinf(bigram_nll(bigram_probs(counts, 0.0), ds.data(Split::Val))));
  // Add-one smoothing gives every pair some probability.
  const double val = bigram_nll(bigram_probs(counts, 1.0), ds.data(Split::Val));
  CHECK(val == Approx(2.4819).margin(5e-4));
  CHECK(val < 3.3473);  // the unigram model of chapter 7
}
