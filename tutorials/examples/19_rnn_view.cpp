// Chapter 19: generation, one token at a time. Softmax attention must keep every key and
// value it has seen (the KV cache grows with the text); linear attention folds them into a
// fixed d_k × d_v state per head, an RNN (Katharopoulos et al. 2020, "Transformers are
// RNNs"). Both give what the whole-sequence forward gives, row for row.
#include <algorithm>
#include <cstdio>

#include "models/gpt.h"
#include "tensor/threads.h"

using namespace attic;

// Floats a step state holds: the KV cache's k and v, or linear attention's S and z.
int64_t state_floats(const nn::MixerState& s) {
  if (auto* kv = dynamic_cast<const nn::CausalSelfAttention::Cache*>(&s))
    return kv->k.numel() + kv->v.numel();
  auto& rnn = dynamic_cast<const nn::CausalLinearAttention::State&>(s).rnn;
  return rnn.S.numel() + rnn.z.numel();
}

int main() {
  set_num_threads(1);
  manual_seed(1337);
  nn::MixerOptions o;  // one attention sublayer of the laptop GPT: C = 128, NH = 4, hs = 32
  o.n_embd = 128;
  o.n_head = 4;
  o.block_size = 64;
  auto softmax = models::make_causal_mixer("softmax", o);
  auto linear = models::make_causal_mixer("linear_elu", o);
  Tensor x = randn({1, 64, 128});  // [B, T, C]

  std::printf("%6s  %18s  %18s\n", "tokens", "softmax KV cache", "linear_elu state");
  std::unique_ptr<nn::MixerState> kv = softmax->start_decoding();
  std::unique_ptr<nn::MixerState> rnn = linear->start_decoding();
  double worst = 0;
  for (int64_t t = 0; t < 64; ++t) {
    Tensor row = x.narrow(1, t, 1);  // token t alone: [1, 1, C]
    Tensor ys = softmax->step(*kv, row, {}), yl = linear->step(*rnn, row, {});
    // The step's output is row t of the forward over tokens 0..t.
    Tensor prefix = x.narrow(1, 0, t + 1);
    worst = std::max(worst, max(abs(ys - softmax->forward(prefix).narrow(1, t, 1))).item<double>());
    worst = std::max(worst, max(abs(yl - linear->forward(prefix).narrow(1, t, 1))).item<double>());
    if (t + 1 == 1 || t + 1 == 16 || t + 1 == 17 || t + 1 == 64)
      std::printf("%6lld  %11lld floats  %11lld floats\n", (long long)(t + 1),
                  (long long)state_floats(*kv), (long long)state_floats(*rnn));
  }
  std::printf("largest |step - forward| over 64 tokens: %s 1e-5\n", worst < 1e-5 ? "<" : ">=");
  return 0;
}
