// The check of chapter 7's exercise: character counts, the unigram model's val loss on a
// small text worked out by hand and on tiny Shakespeare, and the characters val lacks.
#include "tests/catch.h"

#include <cmath>

#include "ops/ops.h"
#include "tensor/threads.h"
#include "unigram.h"

using namespace attic;

TEST_CASE("char_counts counts each id") {
  const Tensor ids = from_vector(std::vector<int64_t>{0, 2, 2, 1, 2});
  const Tensor counts = char_counts(ids, 4);
  REQUIRE(counts.shape() == Shape{4});
  CHECK(counts.dtype() == kFloat64);
  CHECK(counts.to_vector<double>() == std::vector<double>{1, 1, 3, 0});
}

TEST_CASE("the unigram val loss of a small text, worked out by hand") {
  // 10 characters; int(10 * 0.9) = 9 are train: "aaaaaabbc" gives p = (6/9, 2/9, 1/9),
  // and val is "b", so the loss is -ln(2/9) = ln 4.5.
  const TextDataset ds = TextDataset::from_text("aaaaaabbcb");
  REQUIRE(ds.size(Split::Val) == 1);
  CHECK(unigram_val_loss(ds) == Approx(std::log(4.5)).epsilon(1e-9));
  CHECK(missing_chars(ds, Split::Val) == "ac");
  CHECK(missing_chars(ds, Split::Train) == "");
}

TEST_CASE("tiny Shakespeare: counts, the unigram val loss, and what val lacks") {
  set_num_threads(1);
  const TextDataset ds = TextDataset::from_file(default_dataset_path());
  const Tensor counts = char_counts(ds.data(Split::Train), ds.vocab_size());
  CHECK(sum(counts).item<double>() == 1003854);             // one count per train token
  CHECK(counts[1].item<double>() == 153275);                // id 1, the space, is most common
  CHECK(argmax(counts, 0).item<int64_t>() == 1);
  CHECK(min(counts).item<double>() == 1);                   // '$' occurs once: no p is 0
  const double loss = unigram_val_loss(ds);
  CHECK(loss == Approx(3.3473).margin(5e-4));
  CHECK(loss < std::log(65.0));                             // better than a uniform guess
  CHECK(missing_chars(ds, Split::Val) == "$&3X");
  CHECK(missing_chars(ds, Split::Train) == "");
}
