// models/transformer: the encoder-decoder and a small copy task it must solve.
#include <sstream>

#include "helpers.h"
#include "models/transformer/copy_task.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("copy batches: the decoder input is the target shifted right after the start token",
          "[models][encoder_decoder]") {
  Generator gen(1);
  models::CopyBatch b = models::make_copy_batch(2, 4, 9, true, gen);
  const auto s = b.src.to_vector<int64_t>(), in = b.tgt_in.to_vector<int64_t>(),
             out = b.tgt_out.to_vector<int64_t>();
  for (int64_t r = 0; r < 2; ++r) {
    CHECK(in[size_t(r * 4)] == 0);
    for (int64_t t = 0; t < 4; ++t) {
      CHECK(s[size_t(r * 4 + t)] >= 1);
      CHECK(s[size_t(r * 4 + t)] <= 9);
      CHECK(out[size_t(r * 4 + t)] == s[size_t(r * 4 + 3 - t)]);  // reversed
      if (t > 0) CHECK(in[size_t(r * 4 + t)] == out[size_t(r * 4 + t - 1)]);
    }
  }
}

TEST_CASE("EncoderDecoder: logits of shape B x T x V, decoding is causal", "[models][encoder_decoder]") {
  models::EncoderDecoderConfig c;
  c.vocab_size = 6;
  c.max_length = 5;
  c.n_layer = 1;
  c.n_head = 2;
  c.n_embd = 8;
  c.hidden = 16;
  models::EncoderDecoder m(c);
  Tensor src = randint(1, 6, {2, 5}), tgt = randint(0, 6, {2, 4});
  Tensor logits = m.forward(src, tgt);
  CHECK(logits.shape() == Shape{2, 4, 6});
  // changing the last decoder input leaves the first three outputs alone
  Tensor tgt2 = tgt.clone();
  { NoGradGuard g; tgt2.narrow(1, 3, 1).fill_(5); }
  CHECK(max(abs(m.forward(src, tgt2).narrow(1, 0, 3) - logits.narrow(1, 0, 3))).item<double>() < 1e-5);
  CHECK(m.greedy_decode(src, 5).shape() == Shape{2, 5});
}

TEST_CASE("a small encoder-decoder learns to copy 4 symbols", "[models][encoder_decoder][train]") {
  // A smaller variant of `attic seq2seq`: 4 symbols from 1..4, one block each side.
  manual_seed(7);
  models::CopyTaskOptions o;
  o.length = 4;
  o.symbols = 4;
  o.steps = 150;
  o.batch_size = 16;
  o.learning_rate = 1e-2;
  o.eval_size = 100;
  o.model.n_layer = 1;
  o.model.n_head = 2;
  o.model.n_embd = 16;
  o.model.hidden = 32;
  models::CopyTaskResult r = models::train_copy_task(o);
  CHECK(r.exact_match >= 0.95);
}
