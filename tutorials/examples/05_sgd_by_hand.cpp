// Chapter 5: SGD with momentum written by hand as a plain loop, checked against
// optim::SGD, then compared with plain SGD on a badly conditioned problem, and both loss
// curves drawn (05_momentum.svg).
//
// loss = ½ Σ_i c_i (p_i - t_i)², so g_i = c_i (p_i - t_i). With momentum m and lr:
//   b = g on the first step, b = m b + g afterwards;  p = p - lr b
#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>

#include "optim/optim.h"
#include "viz/line_plot.h"

using namespace attic;

const std::vector<double> kCurvature = {1, 10, 50};
const std::vector<double> kTarget = {1, -2, 3};

// The loss at p (plain numbers).
double loss_of(const std::vector<double>& p) {
  double l = 0;
  for (size_t i = 0; i < p.size(); ++i) l += 0.5 * kCurvature[i] * std::pow(p[i] - kTarget[i], 2);
  return l;
}

// n steps of SGD with momentum m from p = 0, by hand.
std::vector<double> naive_sgd(int n, double lr, double m) {
  std::vector<double> p(3, 0.0), b(3, 0.0);
  for (int step = 0; step < n; ++step) {
    for (size_t i = 0; i < p.size(); ++i) {
      const double g = kCurvature[i] * (p[i] - kTarget[i]);
      b[i] = step == 0 ? g : m * b[i] + g;
      p[i] -= lr * b[i];
    }
  }
  return p;
}

// The same with attic: the loss as ops, the gradient from backward, the update from SGD.
Tensor library_sgd(int n, double lr, double m) {
  Tensor p = zeros({3}, kFloat64).requires_grad_();
  const Tensor c = from_vector(kCurvature), t = from_vector(kTarget);
  optim::SGD opt({p}, optim::SGDOptions(lr).momentum(m));
  for (int step = 0; step < n; ++step) {
    opt.zero_grad();
    Tensor loss = 0.5 * sum(c * pow(p - t, 2));
    loss.backward();
    opt.step();
  }
  return p;
}

int main() {
  // 1. Check: the hand-written loop and the library agree.
  const std::vector<double> by_hand = naive_sgd(20, 0.01, 0.9);
  const std::vector<double> by_lib = library_sgd(20, 0.01, 0.9).to_vector<double>();
  double diff = 0;
  for (size_t i = 0; i < 3; ++i) diff = std::max(diff, std::abs(by_hand[i] - by_lib[i]));
  std::printf("after 20 steps: by hand [%.6f, %.6f, %.6f]\n", by_hand[0], by_hand[1], by_hand[2]);
  std::printf("                library [%.6f, %.6f, %.6f]\n", by_lib[0], by_lib[1], by_lib[2]);
  std::printf("max difference < 1e-12: %s\n", diff < 1e-12 ? "true" : "false");

  // 2. Why momentum: the curvatures differ 50-fold. lr = 0.01 keeps the steep direction
  //    stable (lr c = 0.5), but then plain SGD shrinks the error in the flat one (c = 1)
  //    by only a factor 0.99 per step. Momentum carries speed along it.
  std::printf("%5s  %14s  %14s\n", "steps", "loss, m = 0", "loss, m = 0.9");
  for (int n : {0, 10, 50, 100, 200})
    std::printf("%5d  %14.3e  %14.3e\n", n, loss_of(naive_sgd(n, 0.01, 0.0)),
                loss_of(naive_sgd(n, 0.01, 0.9)));

  // 3. The same two runs at every step, as log10 of the loss.
  viz::Series plain{"m = 0", "#1f77b4", {}}, momentum{"m = 0.9", "#d62728", {}};
  for (int n = 0; n <= 200; ++n) {
    plain.points.push_back({double(n), std::log10(loss_of(naive_sgd(n, 0.01, 0.0)))});
    momentum.points.push_back({double(n), std::log10(loss_of(naive_sgd(n, 0.01, 0.9)))});
  }
  std::ofstream("05_momentum.svg") << viz::line_plot_svg(
      {plain, momentum}, "SGD, lr = 0.01, curvatures 1, 10, 50", "step", "log10 loss");
  std::printf("wrote 05_momentum.svg\n");
  return 0;
}
