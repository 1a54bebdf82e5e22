// Chapter 5's exercise: fill in the three TODOs (mlp.h says what each one computes).
#include "mlp.h"

#include <cmath>
#include <stdexcept>

#include "optim/optim.h"

using namespace attic;

MyLinear::MyLinear(int64_t in, int64_t out) {
  // TODO: the parameters "weight" [out, in] and "bias" [out], registered and kept in the
  // members, both drawn from U[-1/√in, 1/√in] (mlp.h).
  (void)in, (void)out;
}

Tensor MyLinear::forward(const Tensor& x) {
  // TODO: y = x Wᵀ + b.
  (void)x;
  throw std::logic_error("TODO: MyLinear::forward (exercises/05_mlp/mlp.cpp)");
}

MLP::MLP(int64_t C) {
  // TODO: the children "c_fc" (C -> 4C) and "c_proj" (4C -> C), registered in that order.
  (void)C;
}

Tensor MLP::forward(const Tensor& x) {
  // TODO: c_proj(gelu(c_fc(x))).
  (void)x;
  throw std::logic_error("TODO: MLP::forward (exercises/05_mlp/mlp.cpp)");
}

std::vector<double> train_sgd(nn::UnaryModule& model, const Tensor& x, const Tensor& y,
                              int steps, double lr) {
  // TODO: `steps` steps of plain SGD (learning rate lr) over all of model's parameters on
  // mean((model(x) - y)²); the loss of every step, taken before its update (mlp.h).
  (void)model, (void)x, (void)y, (void)steps, (void)lr;
  throw std::logic_error("TODO: train_sgd (exercises/05_mlp/mlp.cpp)");
}
