// The Linformer's encoder-decoder: the decoder's self-attention is causal under attic's
// default (decoder_mask = self) and reads later target tokens under the package's
// (context); greedy decoding equals teacher forcing on its own output; a small one learns
// to reverse 4 symbols.
#include "helpers.h"
#include "models/linformer.h"
#include "tests/models/linformer/tiny_enc_dec.h"
#include "models/transformer/copy_task.h"

using namespace attic;
using namespace attic::models::linformer;
using attic::testing::error_message;

namespace {

using attic::testing::tiny_enc_dec;

}  // namespace

TEST_CASE("decoder: causal under decoder_mask = self, reading ahead under the package's context", "[linformer]") {
  const auto [mask, causal] = GENERATE(table<DecoderMask, Causal>({{DecoderMask::Self, Causal::Prefix},
                                                                    {DecoderMask::Context, Causal::Leaky}}));
  INFO(to_string(mask));
  manual_seed(3);
  LinformerEncDec m(tiny_enc_dec(mask, causal));
  NoGradGuard g;
  Tensor x = randint(1, 7, {1, 6});
  Tensor y = from_vector<int64_t>({0, 1, 2, 3, 4, 5}, {1, 6});
  Tensor y2 = from_vector<int64_t>({0, 1, 2, 3, 6, 6}, {1, 6});  // positions 4, 5 differ
  const double moved = max(abs(m.forward(x, y).narrow(1, 0, 4) - m.forward(x, y2).narrow(1, 0, 4))).item<double>();
  if (mask == DecoderMask::Self) CHECK(moved == 0.0);
  else CHECK(moved > 1e-4);
}

TEST_CASE("greedy decoding equals teacher forcing on the decoded tokens", "[linformer]") {
  manual_seed(4);
  LinformerEncDec m(tiny_enc_dec(DecoderMask::Self, Causal::Prefix));
  Tensor x = randint(1, 7, {2, 6});
  Tensor out = m.greedy_decode(x, 6);  // [2, 6]
  Tensor tgt_in = cat({zeros({2, 1}, kInt64), out.narrow(1, 0, 5)}, 1);
  NoGradGuard g;
  m.eval();
  CHECK(argmax(m.forward(x, tgt_in), -1).to_vector<int64_t>() == out.to_vector<int64_t>());
}

TEST_CASE("a small LinformerEncDec learns to reverse 4 symbols through 2 slots", "[linformer][train]") {
  manual_seed(7);
  models::CopyTaskOptions o;
  o.length = 4;
  o.symbols = 4;
  o.reverse = true;
  o.steps = 200;
  o.batch_size = 16;
  o.learning_rate = 1e-2;
  o.eval_size = 100;
  LinformerEncDecOptions lo = tiny_enc_dec(DecoderMask::Self, Causal::Prefix);
  for (LinformerLMOptions* side : {&lo.enc, &lo.dec}) {
    side->num_tokens = 5;
    side->body.input_size = 4;
    side->body.channels = 16;
    side->body.dim_k = 2;
    side->body.depth = 1;
  }
  LinformerEncDec m(lo);
  CHECK(models::train_seq2seq(m, o).exact_match >= 0.95);
}
