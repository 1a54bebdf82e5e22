// Chapter 8: cross-entropy, forward and backward as loops over N rows of V logits, checked
// against attic's cross_entropy and against gradcheck; why the row's max is subtracted; what
// ignore_index does; and the gradient as a picture (08_cross_entropy_grad.svg).
//   loss = -(1/N) Σ_n log p[n, t_n],   p[n, c] = e^x[n, c] / Σ_c' e^x[n, c']
//   dloss/dx[n, c] = (p[n, c] - δ(c, t_n)) / N
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <vector>

#include "autograd/gradcheck.h"
#include "ops/ops.h"
#include "viz/heatmap.h"

using namespace attic;

// x [N, V] row-major logits, t [N] targets -> the mean loss; dx [N, V] receives its gradient.
float cross_entropy_by_hand(const std::vector<float>& x, const std::vector<int64_t>& t, int N,
                            int V, std::vector<float>& dx) {
  dx.assign(x.size(), 0.0f);
  float loss = 0;
  for (int n = 0; n < N; ++n) {
    const float* row = &x[size_t(n * V)];
    // log Σ e^x = m + log Σ e^(x - m) with m the row's max: every exponent is <= 0, so no
    // e^x overflows, and the largest term is e^0 = 1, so the sum is never 0.
    float m = row[0];
    for (int c = 1; c < V; ++c) m = std::max(m, row[c]);
    float total = 0;
    for (int c = 0; c < V; ++c) total += std::exp(row[c] - m);
    const float logsumexp = m + std::log(total);
    loss += (logsumexp - row[t[size_t(n)]]) / float(N);  // -log p[n, t_n]
    for (int c = 0; c < V; ++c) {
      const float p = std::exp(row[c] - logsumexp);
      dx[size_t(n * V + c)] = (p - (c == t[size_t(n)] ? 1.0f : 0.0f)) / float(N);
    }
  }
  return loss;
}

// row [V], target t -> the same loss of one row, -log(e^x[t] / Σ e^x), without the max.
float naive_row_loss(const std::vector<float>& row, int64_t t) {
  float total = 0;
  for (float v : row) total += std::exp(v);
  return -std::log(std::exp(row[size_t(t)]) / total);
}

// a, b [n] -> max |a - b|
float max_diff(const std::vector<float>& a, const std::vector<float>& b) {
  float d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

// values [N, V] -> an annotated heat map (diverging: signed, 0 white)
viz::Heatmap map_of(const Tensor& values, const std::string& title, bool diverging) {
  viz::Heatmap h;
  h.values = values.to_vector<double>();
  h.rows = int(values.size(0));
  h.cols = int(values.size(1));
  h.title = title;
  h.row_label = "row n";
  h.col_label = "class c";
  h.diverging = diverging;
  h.annotate = true;
  return h;
}

int main() {
  std::cout << std::boolalpha;
  const int N = 4, V = 5;
  const std::vector<float> x = {0, 0, 0, 0, 0,     // equal logits: p = 1/5 each
                                4, 1, 0, 0, -1,    // confident and right (target 0)
                                4, 1, 0, 0, -1,    // confident and wrong (target 3)
                                1, 2, 3, 2, 1};
  const std::vector<int64_t> t = {2, 0, 3, 2};

  // 1. By hand, and attic's op with its autograd.
  std::vector<float> dx;
  const float loss = cross_entropy_by_hand(x, t, N, V, dx);
  Tensor X = from_vector(x, {N, V}).requires_grad_();
  Tensor T = from_vector(t, {N});
  Tensor L = cross_entropy(X, T);
  L.backward();
  std::printf("loss by hand %.4f, by cross_entropy %.4f\n", loss, L.item<float>());
  std::cout << "gradient\n" << X.grad() << "\n";
  std::printf("max |by hand - attic|: loss < 1e-6 %s, gradient < 1e-6 %s\n",
              std::abs(loss - L.item<float>()) < 1e-6f ? "true" : "false",
              max_diff(dx, X.grad().to_vector<float>()) < 1e-6f ? "true" : "false");
  std::cout << "each gradient row sums to 0 (to 1e-7): "
            << (max(abs(sum(X.grad(), {1}))).item<float>() < 1e-7f) << "\n";

  // 2. gradcheck against central finite differences, in float64.
  manual_seed(0);
  Tensor targets = from_vector<int64_t>({1, 4, 0, 4, 2, 3}, {6});
  std::cout << "gradcheck: "
            << autograd::gradcheck([&](const std::vector<Tensor>& in) {
                 return cross_entropy(in[0], targets);
               }, {randn({6, 5}, kFloat64).requires_grad_()}) << "\n";

  // 3. Large logits: e^100 is inf in float32 (its largest value is about 3.4e38 = e^88.7).
  const std::vector<float> big = {100, 90, 80};
  std::vector<float> dbig;
  // The naive loss is inf / inf = NaN. printf shows a NaN's sign bit, which CPUs set
  // differently (x86 -nan, ARM nan, here after a minus), so fabs clears it.
  std::printf("logits (100, 90, 80), target 1: naive %f, with the max %.4f, attic %.4f\n",
              std::fabs(naive_row_loss(big, 1)), cross_entropy_by_hand(big, {1}, 1, 3, dbig),
              cross_entropy(from_vector(big, {1, 3}), from_vector<int64_t>({1}, {1})).item<float>());

  // 4. ignore_index (-100 by default): that row adds nothing and is not counted.
  Tensor X2 = from_vector(x, {N, V}).requires_grad_();
  Tensor L2 = cross_entropy(X2, from_vector<int64_t>({2, 0, -100, 2}, {N}));
  L2.backward();
  std::printf("row 2 ignored: loss %.4f = (%.4f + %.4f + %.4f) / 3\n", L2.item<float>(),
              -std::log(0.2f), -(x[5] - std::log(std::exp(4.f) + std::exp(1.f) + 2 + std::exp(-1.f))),
              -(3 - std::log(2 * std::exp(1.f) + 2 * std::exp(2.f) + std::exp(3.f))));
  std::cout << "its gradient row: " << X2.grad()[2] << "\n";

  // 5. The picture: p, the one-hot targets, and their difference, which is N · dloss/dx.
  Tensor p = softmax(X.detach(), 1);
  Tensor onehot = zeros({N, V});
  for (int n = 0; n < N; ++n) onehot[n][t[size_t(n)]].fill_(1.0);
  std::ofstream("08_cross_entropy_grad.svg")
      << viz::heatmaps_svg({map_of(p, "softmax p", false), map_of(onehot, "one-hot target", false),
                            map_of(p - onehot, "p - one-hot = N dloss/dx", true)}, 40);
  std::cout << "wrote 08_cross_entropy_grad.svg\n";
  return 0;
}
