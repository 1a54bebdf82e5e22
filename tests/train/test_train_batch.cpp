// The training batches (train/train_batch.h): with batches = own, the batch of an iteration is
// the same whatever the default generator has drawn before it (another model's init, dropout),
// and differs between iterations, micro-batches and seeds; with batches = shared it is drawn
// from the default generator, as nanoGPT's get_batch is.
#include "tests/catch.h"

#include <string>

#include "data/text_dataset.h"
#include "tensor/random.h"
#include "train/train_batch.h"

using namespace attic;
using namespace attic::train;

namespace {

std::vector<int64_t> ids(const Batch& b) { return b.x.contiguous().to_vector<int64_t>(); }

}  // namespace

TEST_CASE("batches = own: the same batch whatever was drawn before it", "[train]") {
  std::string text;
  for (int i = 0; i < 400; ++i) text += char('a' + (i * 7) % 26);
  const TextDataset data = TextDataset::from_text(text);
  TrainConfig cfg;
  cfg.batch_size = 4;
  cfg.block_size = 8;
  cfg.batches = "own";
  manual_seed(1);
  const auto first = ids(train_batch(cfg, data, 5, 0));
  manual_seed(2);
  for (int i = 0; i < 1000; ++i) default_generator().next_u64();  // a bigger model's init
  CHECK(ids(train_batch(cfg, data, 5, 0)) == first);
  CHECK(ids(train_batch(cfg, data, 6, 0)) != first);
  CHECK(ids(train_batch(cfg, data, 5, 1)) != first);
  cfg.seed += 1;
  CHECK(ids(train_batch(cfg, data, 5, 0)) != first);

  cfg.batches = "shared";
  manual_seed(3);
  const auto shared = ids(train_batch(cfg, data, 5, 0));
  manual_seed(3);
  CHECK(ids(train_batch(cfg, data, 9, 0)) == shared);  // the generator's next draw, any iteration
  manual_seed(3);
  default_generator().next_u64();
  CHECK(ids(train_batch(cfg, data, 5, 0)) != shared);
}
