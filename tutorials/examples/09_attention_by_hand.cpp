// Chapter 9: causal self-attention for one head, T = 4 and hs = 2, first as loops over a
// few floats, then with attic ops, a check that the two agree, and the weights drawn as a
// heat map (09_attention_weights.svg). Then why the scores are divided by √hs.
//   s[t, u] = q[t]·k[u] / √hs,  w[t] = softmax(s[t, 0..t]),  y[t] = Σ_{u <= t} w[t, u] v[u]
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <vector>

#include "ops/ops.h"
#include "viz/heatmap.h"

using namespace attic;

// q, k, v [T, hs] row-major -> y [T, hs]; w [T, T] receives the weights (0 above the
// diagonal: those scores are never computed).
std::vector<float> attention_by_hand(const std::vector<float>& q, const std::vector<float>& k,
                                     const std::vector<float>& v, int T, int hs,
                                     std::vector<float>& w) {
  const float scale = 1.0f / std::sqrt(float(hs));
  std::vector<float> y(size_t(T * hs), 0.0f);
  w.assign(size_t(T * T), 0.0f);
  auto Q = [&](int t, int i) { return q[size_t(t * hs + i)]; };
  auto K = [&](int u, int i) { return k[size_t(u * hs + i)]; };
  auto V = [&](int u, int i) { return v[size_t(u * hs + i)]; };
  auto W = [&](int t, int u) -> float& { return w[size_t(t * T + u)]; };
  for (int t = 0; t < T; ++t) {
    // scores against the keys u = 0..t only: the future is never looked at
    float maxval = -std::numeric_limits<float>::infinity();
    for (int u = 0; u <= t; ++u) {
      float s = 0;
      for (int i = 0; i < hs; ++i) s += Q(t, i) * K(u, i);
      W(t, u) = s * scale;
      maxval = std::max(maxval, W(t, u));
    }
    // softmax; subtracting the row's max keeps exp from overflowing and changes nothing
    float total = 0;
    for (int u = 0; u <= t; ++u) total += (W(t, u) = std::exp(W(t, u) - maxval));
    for (int u = 0; u <= t; ++u) W(t, u) /= total;
    // the weighted sum of the values
    for (int u = 0; u <= t; ++u)
      for (int i = 0; i < hs; ++i) y[size_t(t * hs + i)] += W(t, u) * V(u, i);
  }
  return y;
}

// Largest |a - b| over two equally long lists.
float max_diff(const std::vector<float>& a, const std::vector<float>& b) {
  float d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

int main() {
  std::cout << std::boolalpha;
  const int T = 4, hs = 2;
  const std::vector<float> q = {1, 0, 0, 2, 1, 1, -1, 1};  // [T, hs]
  const std::vector<float> k = {2, 0, 0, 2, 1, -1, 1, 1};
  const std::vector<float> v = {1, 0, 0, 1, 2, 2, -1, 3};

  // 1. By hand.
  std::vector<float> w_hand;
  const std::vector<float> y_hand = attention_by_hand(q, k, v, T, hs, w_hand);

  // 2. With attic ops, the lines of models/gpt/attention.cpp for one head.
  Tensor Q = from_vector(q, {T, hs}), K = from_vector(k, {T, hs}), V = from_vector(v, {T, hs});
  Tensor att = matmul(Q, K.t()) * (1.0 / std::sqrt(double(hs)));  // [T, T]
  Tensor mask = triu(ones({T, T}, kBool), 1);                       // true where u > t
  att = masked_fill(att, mask, -std::numeric_limits<double>::infinity());
  Tensor w = softmax(att, -1);
  Tensor y = matmul(w, V);  // [T, hs]
  std::cout << "masked scores\n" << att << "\nweights\n" << w << "\ny\n" << y << "\n";
  std::cout << "row sums of the weights " << sum(w, {1}) << "\n";
  std::cout << "weights above the diagonal are exactly 0: "
            << (sum(w * mask).item<float>() == 0.0f) << "\n";

  // 3. The check.
  std::printf("max |weights by hand - weights by ops| < 1e-6: %s\n",
              max_diff(w_hand, w.to_vector<float>()) < 1e-6f ? "true" : "false");
  std::printf("max |y by hand - y by ops| < 1e-6: %s\n",
              max_diff(y_hand, y.to_vector<float>()) < 1e-6f ? "true" : "false");

  // 4. The weights as a heat map: row t is query t, column u is key u; above the diagonal
  //    every cell is 0 (white).
  viz::Heatmap map;
  map.values = w.to_vector<double>();
  map.rows = map.cols = T;
  map.title = "causal weights of one head";
  map.annotate = true;
  std::ofstream("09_attention_weights.svg") << viz::heatmap_svg(map, 40);

  // 5. Why √hs: with q and k of unit variance, q·k is a sum of hs products, so its
  //    variance is hs. Unscaled, the scores spread wider as hs grows and softmax puts
  //    nearly all the weight on one key.
  manual_seed(0);
  const int64_t n = 16, d = 64;
  Tensor qs = randn({n, d}), ks = randn({n, d});
  Tensor raw = matmul(qs, ks.t());  // [16, 16], no mask: 16 keys per row
  Tensor scaled = raw * (1.0 / std::sqrt(double(d)));
  std::printf("hs = %lld: std of q·k %.2f, of q·k/√hs %.2f\n", (long long)d,
              std::sqrt(var(raw).item<double>()), std::sqrt(var(scaled).item<double>()));
  std::printf("mean of each row's largest weight: unscaled %.2f, scaled %.2f (uniform: %.2f)\n",
              mean(max(softmax(raw, -1), 1).values).item<double>(),
              mean(max(softmax(scaled, -1), 1).values).item<double>(), 1.0 / double(n));
  return 0;
}
