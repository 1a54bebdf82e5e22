// Chapter 10: the parts a GPT adds to the MLP model, one at a time.
//   GELU:       gelu(x) = x Φ(x);  tanh form 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))
//   LayerNorm:  y = (x - mean(x)) / √(var(x) + eps) · weight + bias, over the last dim
//   Dropout:    y = x · m / (1 - p), m[i] ~ Bernoulli(1 - p), in training; y = x in eval
//   sinusoidal positions (Vaswani et al. 2017, §3.5), for d channels and i = 0 .. d/2 - 1:
//     PE[t, 2i] = sin(t / 10000^(2i/d)),  PE[t, 2i+1] = cos(t / 10000^(2i/d))
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "nn/nn.h"
#include "viz/line_plot.h"

using namespace attic;

// d channels -> PE [T, d], Vaswani et al.'s sinusoids.
Tensor sinusoids(int64_t T, int64_t d) {
  std::vector<double> pe(size_t(T * d));
  for (int64_t t = 0; t < T; ++t)
    for (int64_t i = 0; i < d / 2; ++i) {
      const double angle = double(t) / std::pow(10000.0, double(2 * i) / double(d));
      pe[size_t(t * d + 2 * i)] = std::sin(angle);
      pe[size_t(t * d + 2 * i + 1)] = std::cos(angle);
    }
  return from_vector(pe, {T, d});
}

int main() {
  // 1. GELU next to ReLU, and the tanh approximation GPT-2 used.
  Tensor x = arange(-4, 4.01, 0.05, kFloat64);  // 161 points
  Tensor exact = gelu(x), approx = gelu(x, "tanh");
  std::printf("max |gelu - gelu tanh| on [-4, 4]: %.1e\n", max(abs(exact - approx)).item<double>());
  for (double v : {-1.0, 0.0, 1.0})
    std::printf("x = %4.1f  relu %.4f  gelu %7.4f\n", v, relu(tensor({v})).item<double>(),
                gelu(tensor({v})).item<double>());
  std::vector<viz::Series> series = {{"relu(x)", "#7f7f7f", {}, true}, {"gelu(x)", "#1f77b4", {}}};
  for (int64_t i = 0; i < x.numel(); i += 2)
    if (std::abs(x[i].item<double>()) <= 3.001) {
      series[0].points.push_back({x[i].item<double>(), relu(x[i]).item<double>()});
      series[1].points.push_back({x[i].item<double>(), exact[i].item<double>()});
    }
  std::ofstream("10_gelu.svg") << viz::line_plot_svg(series, "GELU and ReLU", "x", "", 480, 300);

  // 2. LayerNorm: every row comes out with mean 0 and variance 1, whatever its scale.
  nn::LayerNorm ln(4);
  Tensor rows = tensor({{1.0f, 2.0f, 3.0f, 4.0f}, {100.0f, 200.0f, 300.0f, 400.0f}});
  std::cout << "layer_norm of a row and of 100 times the row:\n" << ln(rows).detach() << "\n";

  // 3. Dropout with p = 0.5: half the entries become 0, the rest double; eval is the identity.
  manual_seed(0);
  nn::Dropout drop(0.5);
  Tensor ones8 = ones({2, 8});
  std::cout << "train:\n" << drop(ones8) << "\n";
  std::printf("mean over 100000 ones: %.4f\n", mean(drop(ones({100000}))).item<double>());
  drop.eval();
  std::cout << "eval:\n" << drop(ones8) << "\n";

  // 4. Sinusoidal positions: PE[t] · PE[t + k] depends on k only, not on t.
  Tensor pe = sinusoids(64, 16);
  for (int64_t k : {1, 4}) {
    std::printf("k = %lld: PE[t]·PE[t+k] for t = 0, 10, 40:", (long long)k);
    for (int64_t t : {0, 10, 40}) std::printf(" %.4f", sum(pe[t] * pe[t + k]).item<double>());
    std::printf("\n");
  }
  return 0;
}
