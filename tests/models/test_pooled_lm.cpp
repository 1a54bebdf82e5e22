// models/transformer/pooled_lm: shapes ([B, L] -> [B, V]), the dataset windows, a few
// steps of learning, generation.
#include "helpers.h"
#include "data/text_dataset.h"
#include "models/transformer/pooled_lm.h"
#include "optim/optim.h"

using namespace attic;
using namespace attic::testing;

namespace {

models::PooledLMConfig tiny(const std::string& kind) {
  models::PooledLMConfig c;
  c.vocab_size = 7;
  c.window = 5;
  c.n_layer = 1;
  c.n_head = 2;
  c.n_embd = 8;
  c.dropout = 0.0;
  c.attention = kind;
  return c;
}

}  // namespace

TEST_CASE("PooledLM maps a window B x L to next-token logits B x V, also for B = 1",
          "[models][pooled_lm]") {
  for (const std::string kind : {"softmax", "linear_elu", "linear_exp"}) {
    models::PooledLM lm(tiny(kind));
    CHECK(lm.forward(randint(0, 7, {3, 5})).logits.shape() == Shape{3, 7});
    CHECK(lm.forward(randint(0, 7, {1, 5})).logits.shape() == Shape{1, 7});  // not [7]
    auto out = lm.forward(randint(0, 7, {3, 5}), from_vector<int64_t>({1, 2, 3}));
    CHECK(out.loss.dim() == 0);
  }
  models::PooledLM lm(tiny("softmax"));
  CHECK(error_message([&] { lm.forward(randint(0, 7, {2, 6})); }) ==
        "PooledLM: idx of shape [2, 6] must be [B, T] with 1 <= T <= window = 5");
}

TEST_CASE("the training windows: len - L of them, item k's target is token k + L",
          "[models][pooled_lm][data]") {
  // get_batch draws windows x = d[i : i+L], y = d[i+1 : i+L+1] with i in [0, len - L):
  // the pooled LM's target is y's last column, d[i + L].
  TextDataset data = TextDataset::from_text("abcdefghijklmnopqrstuvwxyz0123456789");
  Generator gen(3);
  Batch b = data.get_batch(Split::Train, 64, 5, gen);
  const auto x = b.x.to_vector<int64_t>(), y = b.y.to_vector<int64_t>();
  const auto d = data.tokens().to_vector<int64_t>();
  for (int64_t r = 0; r < 64; ++r) {
    // the window's first token tells i (all characters differ)
    const int64_t i = int64_t(std::find(d.begin(), d.end(), x[size_t(r * 5)]) - d.begin());
    CHECK(i < data.size(Split::Train) - 5);
    CHECK(y[size_t(r * 5 + 4)] == d[size_t(i + 5)]);
  }
}

TEST_CASE("PooledLM learns a deterministic next token and generates it", "[models][pooled_lm][train]") {
  // the sequence 0 1 2 3 4 5 6 0 1 2 …: the next token is (last + 1) mod 7
  manual_seed(5);
  models::PooledLM lm(tiny("linear_elu"));
  optim::AdamW opt(lm.parameters(), optim::AdamWOptions(1e-2).weight_decay(0.0));
  std::vector<int64_t> xs, ys;
  for (int64_t s = 0; s < 7; ++s) {
    for (int64_t t = 0; t < 5; ++t) xs.push_back((s + t) % 7);
    ys.push_back((s + 5) % 7);
  }
  Tensor x = from_vector(xs, {7, 5}), y = from_vector(ys, {7});
  double first = 0, last = 0;
  for (int step = 0; step < 60; ++step) {
    Tensor loss = lm.forward(x, y).loss;
    if (step == 0) first = loss.item<double>();
    last = loss.item<double>();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  CHECK(last < 0.2 * first);
  // greedy, each new token predicted from the last L = 5
  Tensor out = lm.generate(from_vector<int64_t>({2, 3, 4, 5, 6}, {1, 5}), 4, 0.0);
  CHECK(out.to_vector<int64_t>() == std::vector<int64_t>{2, 3, 4, 5, 6, 0, 1, 2, 3});
}
