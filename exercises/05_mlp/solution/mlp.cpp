// Chapter 5's exercise, solved.
#include "mlp.h"

#include <cmath>

#include "optim/optim.h"

using namespace attic;

MyLinear::MyLinear(int64_t in, int64_t out) {
  const double bound = 1.0 / std::sqrt(double(in));
  weight = register_parameter("weight", empty({out, in}));
  bias = register_parameter("bias", empty({out}));
  nn::init::uniform_(weight, -bound, bound);
  nn::init::uniform_(bias, -bound, bound);
}

// Wᵀ is a transposed view; matmul broadcasts over the leading dims of x.
Tensor MyLinear::forward(const Tensor& x) { return matmul(x, weight.t()) + bias; }

MLP::MLP(int64_t C) {
  c_fc = register_module("c_fc", std::make_shared<MyLinear>(C, 4 * C));
  c_proj = register_module("c_proj", std::make_shared<MyLinear>(4 * C, C));
}

Tensor MLP::forward(const Tensor& x) { return c_proj->forward(gelu(c_fc->forward(x))); }

std::vector<double> train_sgd(nn::UnaryModule& model, const Tensor& x, const Tensor& y,
                              int steps, double lr) {
  optim::SGD opt(model.parameters(), optim::SGDOptions(lr));
  std::vector<double> losses;
  for (int step = 0; step < steps; ++step) {
    opt.zero_grad();
    Tensor loss = mean(pow(model(x) - y, 2));
    loss.backward();
    opt.step();
    losses.push_back(loss.item<double>());
  }
  return losses;
}
