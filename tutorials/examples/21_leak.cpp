// Chapter 21: why the compressed causal mask leaks, and the prefix slots that do not. A
// two-layer Linformer LM over n = 8 tokens with k = 4 slots: change the last two tokens and
// see which earlier positions' logits move. Then the prefix model generates one token at a
// time from its slots, as an RNN, and gives the logits of the full forward.
#include <cstdio>

#include "models/linformer.h"

using namespace attic;
using namespace attic::models::linformer;

LinformerLMOptions tiny(Causal causal) {
  LinformerLMOptions o;
  o.num_tokens = 10;
  o.dropout_tokens = 0;
  o.body.input_size = 8;
  o.body.channels = 8;
  o.body.dim_k = 4;
  o.body.dim_ff = 16;
  o.body.nhead = 2;
  o.body.depth = 2;
  o.body.dropout = 0;
  o.body.dropout_ff = 0;
  o.body.parameter_sharing = Sharing::Headwise;
  o.body.causal = causal;
  return o;
}

int main() {
  const Tensor a = from_vector<int64_t>({3, 1, 4, 1, 5, 9, 2, 6}, {1, 8});
  const Tensor b = from_vector<int64_t>({3, 1, 4, 1, 5, 9, 7, 0}, {1, 8});  // positions 6, 7 differ
  for (Causal causal : {Causal::Leaky, Causal::Prefix}) {
    manual_seed(1);
    LinformerLM lm(tiny(causal));
    NoGradGuard no_grad;
    Tensor diff = max(abs(lm.forward(a) - lm.forward(b)), 2, false).values.squeeze(0);  // [8] per position
    std::printf("%-6s logits at positions 0..7:", to_string(causal).c_str());
    for (double x : diff.to_vector<double>()) std::printf(" %s", x > 1e-6 ? "moved" : "same");
    std::printf("\n");
  }

  manual_seed(1);
  LinformerLM lm(tiny(Causal::Prefix));
  lm.eval();
  NoGradGuard no_grad;
  Tensor full = lm.forward(a);  // [1, 8, 10]
  auto state = lm.start_decoding();
  double worst = 0;
  for (int64_t t = 0; t < 8; ++t) {
    Tensor step = lm.step(*state, a.narrow(1, t, 1));  // [1, 1, 10], from the slots alone
    worst = std::max(worst, max(abs(step - full.narrow(1, t, 1))).item<double>());
  }
  std::printf("prefix, token by token through its slots: %lld tokens, equal to the forward within 1e-5: %s\n",
              (long long)state->length, worst < 1e-5 ? "yes" : "no");
  return 0;
}
