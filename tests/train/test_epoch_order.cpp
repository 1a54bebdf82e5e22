// Training in epochs (train/epoch_order.h): an epoch reads every window once, in an order of
// its own that does not depend on anything drawn before; the windows that fill no step are
// left out; and the per-epoch schedules are PyTorch's CosineAnnealingLR and StepLR stepped
// once per epoch.
#include "tests/catch.h"
#include "tests/helpers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>
#include <string>

#include "data/text_dataset.h"
#include "tensor/random.h"
#include "train/epoch_order.h"

using namespace attic;
using namespace attic::train;
using attic::testing::error_message;

namespace {

// A text of n characters, all but the last in the train split.
TextDataset numbered(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += char('a' + (i * 7) % 26);
  return TextDataset::from_text(text, /*train_fraction=*/1.0 - 1e-9);
}

TrainConfig epochs_config() {
  TrainConfig cfg;
  cfg.batch_size = 4;
  cfg.block_size = 8;
  cfg.max_epochs = 3;
  cfg.epoch_stride = 5;
  cfg.gradient_accumulation_steps = 2;
  return cfg;
}

}  // namespace

TEST_CASE("an epoch reads every window once, at starts 0, stride, 2 stride, ..., shuffled per epoch", "[train][epochs]") {
  const TextDataset data = numbered(400);
  const int64_t len = data.size(Split::Train);
  TrainConfig cfg = epochs_config();
  EpochOrder order(cfg, data);
  // Starts 0, 5, ... below len - 8: ⌊(len - 9) / 5⌋ + 1 of them; 8 windows per step.
  CHECK(order.windows() == (len - 9) / 5 + 1);
  CHECK(order.iters_per_epoch() == order.windows() / 8);
  CHECK(order.last_iter() == 3 * order.iters_per_epoch());
  std::vector<std::vector<int64_t>> orders;
  for (int64_t e = 0; e < 3; ++e) {
    std::vector<int64_t> pi = order.order(e);
    std::vector<int64_t> sorted = pi;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t j = 0; j < order.windows(); ++j) REQUIRE(sorted[size_t(j)] == j);  // a permutation
    orders.push_back(pi);
  }
  CHECK(orders[0] != orders[1]);
  CHECK(orders[1] != orders[2]);
  // The batches of epoch 1 are its order's windows, micro-batch by micro-batch.
  const int64_t I = order.iters_per_epoch();
  std::set<int64_t> seen;
  for (int64_t p = 0; p < I; ++p)
    for (int64_t m = 0; m < 2; ++m) {
      const Batch b = order.batch(I + p, m);
      REQUIRE(b.x.shape() == Shape{4, 8});
      std::vector<int64_t> starts;
      for (int64_t r = 0; r < 4; ++r) starts.push_back(orders[1][size_t((p * 2 + m) * 4 + r)] * 5);
      const Batch want = data.get_windows(Split::Train, starts, 8);
      CHECK(b.x.contiguous().to_vector<int64_t>() == want.x.contiguous().to_vector<int64_t>());
      CHECK(b.y.contiguous().to_vector<int64_t>() == want.y.contiguous().to_vector<int64_t>());
      for (int64_t s : starts) CHECK(seen.insert(s).second);  // no window twice in an epoch
    }
  // Every window but the W mod 8 that fill no step.
  CHECK(int64_t(seen.size()) == I * 8);
  CHECK(order.windows() - int64_t(seen.size()) == order.windows() % 8);
}

TEST_CASE("an epoch's order does not depend on what the default generator drew, and follows the seed",
          "[train][epochs]") {
  const TextDataset data = numbered(400);
  TrainConfig cfg = epochs_config();
  manual_seed(1);
  const std::vector<int64_t> a = EpochOrder(cfg, data).order(2);
  manual_seed(99);
  (void)default_generator().randint(0, 1000);
  CHECK(EpochOrder(cfg, data).order(2) == a);
  cfg.seed += 1;
  CHECK(EpochOrder(cfg, data).order(2) != a);
}

TEST_CASE("get_windows is x = d[s : s+T], y one token later, and refuses a start outside the split",
          "[train][epochs][data]") {
  const TextDataset data = TextDataset::from_text("abcdefghijklmnopqrstuvwxyz", 1.0 - 1e-9);
  const Batch b = data.get_windows(Split::Train, {0, 20}, 4);
  const std::vector<int64_t> x = b.x.contiguous().to_vector<int64_t>(), y = b.y.contiguous().to_vector<int64_t>();
  CHECK(data.tokenizer().decode(std::vector<int64_t>(x.begin(), x.begin() + 4)) == "abcd");
  CHECK(data.tokenizer().decode(std::vector<int64_t>(y.begin() + 4, y.end())) == "vwxy");
  CHECK(error_message([&] { data.get_windows(Split::Train, {22}, 4); }) ==
        "TextDataset::get_windows: start 22 is outside [0, 21) of the train split of 25 tokens for T = 4");
}

TEST_CASE("too few windows for one step, too many epochs, and epoch keys without max_epochs, are errors naming the values",
          "[train][epochs][errors]") {
  const TextDataset data = numbered(60);
  TrainConfig cfg = epochs_config();
  cfg.epoch_stride = 50;
  CHECK(error_message([&] { EpochOrder order(cfg, data); }) ==
        "max_epochs: the train split of 59 tokens holds 2 windows of block_size = 8 every epoch_stride = 50 tokens, "
        "fewer than one step reads (batch_size 4 x gradient_accumulation_steps 2); lower epoch_stride or batch_size");
  cfg.epoch_stride = 1;  // 51 windows, 6 steps an epoch
  cfg.max_epochs = std::numeric_limits<int64_t>::max();
  CHECK(error_message([&] { EpochOrder order(cfg, data); }) ==
        "max_epochs = 9223372036854775807 of 6 iterations each is more iterations than an int64 counts");
  TrainConfig c;
  c.lr_schedule = "cosine_epochs";
  CHECK(error_message([&] { c.validate(); }) ==
        "lr_schedule cosine_epochs steps once per epoch: it needs max_epochs > 0, got max_epochs = 0");
  TrainConfig d;
  d.epoch_stride = 3;
  CHECK(error_message([&] { d.validate(); }) == "epoch_stride = 3 places an epoch's windows: it needs max_epochs > 0");
}

TEST_CASE("cosine_epochs is CosineAnnealingLR and step_epochs StepLR, one rate through each epoch", "[train][epochs][optim]") {
  TrainConfig cfg;
  cfg.max_epochs = 20;
  cfg.learning_rate = 0.1;
  cfg.min_lr = 0.001;
  cfg.lr_schedule = "cosine_epochs";
  const int64_t I = 7;  // iterations per epoch
  // PyTorch's recursive form (torch/optim/lr_scheduler.py, CosineAnnealingLR.get_lr), from
  // eta_0 = lr: eta_e = eta_min + (eta_{e-1} - eta_min) (1 + cos(π e / T)) / (1 + cos(π (e-1) / T)).
  double eta = cfg.learning_rate;
  for (int64_t e = 0; e <= 20; ++e) {
    if (e > 0)
      eta = cfg.min_lr + (eta - cfg.min_lr) * (1 + std::cos(std::numbers::pi * double(e) / 20)) /
                             (1 + std::cos(std::numbers::pi * double(e - 1) / 20));
    for (int64_t p : {int64_t(0), int64_t(3), I - 1}) {
      if (e == 20 && p > 0) continue;  // the run ends at iteration 20 · I
      CHECK(cfg.lr_at(e * I + p, I) == Approx(eta).epsilon(1e-12));
    }
  }
  CHECK(cfg.lr_at(20 * I, I) == Approx(0.001));
  cfg.lr_schedule = "step_epochs";
  cfg.lr_gamma = 0.9;
  cfg.lr_step_size = 2;
  CHECK(cfg.lr_at(0, I) == Approx(0.1));
  CHECK(cfg.lr_at(2 * I - 1, I) == Approx(0.1));
  CHECK(cfg.lr_at(2 * I, I) == Approx(0.09));
  CHECK(cfg.lr_at(5 * I + 3, I) == Approx(0.1 * 0.81));
  CHECK(error_message([&] { (void)cfg.lr_at(3, 0); }) ==
        "lr_at: lr_schedule step_epochs needs max_epochs and iterations per epoch, got 20 and 0");
}
