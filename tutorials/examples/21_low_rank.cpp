// Chapter 21: low-rank attention (Wang et al. 2020, "Linformer", as tatp22/linformer-pytorch
// builds it). One head: n = 8 positions summarized into k = 3 slots by E and F, softmax over
// the slots. Then the same head with k = n and E = F = I, which is full attention again,
// and the number of E/F matrices each sharing mode makes for 12 layers of 12 heads.
#include <cstdio>

#include "models/linformer.h"

using namespace attic;
using namespace attic::models::linformer;

int main() {
  manual_seed(0);
  const int64_t n = 8, k = 3, d = 4;
  auto E = std::make_shared<Projection>(n, k, Method::Learnable, d);
  auto F = std::make_shared<Projection>(n, k, Method::Learnable, d);
  LinearAttentionHead head(d, 0.0, E, F, Causal::None, false);
  Tensor q = randn({1, n, d}), key = randn({1, n, d}), v = randn({1, n, d});
  LayerArgs args;
  args.visualize = true;  // keep P̄
  Tensor y = head.forward(q, key, v, args);
  std::printf("E.weight %s, K̄ = E(K) %s, P̄ %s, y %s\n", str(E->weight.shape()).c_str(),
              str(E->compress(key).shape()).c_str(), str(head.P_bar.shape()).c_str(), str(y.shape()).c_str());
  const std::vector<double> row = head.P_bar.select(1, 0).to_vector<double>();
  std::printf("row 0 of P̄: %.4f %.4f %.4f (sum %.4f)\n", row[0], row[1], row[2], row[0] + row[1] + row[2]);

  // k = n and E = F = I (bias 0): every slot is one position, and this is softmax attention.
  auto I = std::make_shared<Projection>(n, n, Method::Learnable, d);
  {
    NoGradGuard no_grad;
    std::vector<float> eye(size_t(n * n), 0.0f);
    for (int64_t i = 0; i < n; ++i) eye[size_t(i * n + i)] = 1.0f;
    I->weight.copy_(from_vector(eye, {n, n}));
    I->bias.zero_();
  }
  LinearAttentionHead identity(d, 0.0, I, I, Causal::None, false);
  LinearAttentionHead full(d, 0.0, I, I, Causal::None, /*full_attention=*/true);
  std::printf("k = n, E = F = I equals full attention within 1e-6: %s\n",
              max(abs(identity.forward(q, key, v) - full.forward(q, key, v))).item<double>() < 1e-6 ? "yes" : "no");

  // E/F matrices in a 12-layer, 12-head stack, by parameter sharing
  for (Sharing s : {Sharing::None, Sharing::Headwise, Sharing::KV, Sharing::Layerwise}) {
    LinformerOptions o;
    o.input_size = 16;
    o.channels = 24;
    o.dim_k = 4;
    o.nhead = 12;
    o.depth = 12;
    o.parameter_sharing = s;
    Linformer stack(o);
    std::printf("sharing %-9s %3lld E/F matrices, %6lld parameters\n", to_string(s).c_str(),
                (long long)stack.distinct_projections(), (long long)stack.num_parameters());
  }
  return 0;
}
