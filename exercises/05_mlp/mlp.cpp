// Chapter 5's exercise: fill in the three TODOs (mlp.h says what each one computes).
#include "mlp.h"

#include <cmath>
#include <stdexcept>

#include "optim/optim.h"

using namespace attic;

MyLinear::MyLinear(int64_t in, int64_t out) {
  // TODO: register the parameters "weight" [out, in] and "bias" [out] (register_parameter
  // returns the tensor to keep in the member) and fill both from U[-1/√in, 1/√in]
  // (nn::init::uniform_).
  (void)in, (void)out;
}

Tensor MyLinear::forward(const Tensor& x) {
  // TODO: y = x Wᵀ + b.
  (void)x;
  throw std::logic_error("TODO: MyLinear::forward (exercises/05_mlp/mlp.cpp)");
}

MLP::MLP(int64_t C) {
  // TODO: register the children "c_fc" (C -> 4C) and "c_proj" (4C -> C), in that order.
  (void)C;
}

Tensor MLP::forward(const Tensor& x) {
  // TODO: c_proj(gelu(c_fc(x))).
  (void)x;
  throw std::logic_error("TODO: MLP::forward (exercises/05_mlp/mlp.cpp)");
}

std::vector<double> train_sgd(nn::UnaryModule& model, const Tensor& x, const Tensor& y,
                              int steps, double lr) {
  // TODO: an optim::SGD over model.parameters(), then `steps` times: zero_grad, forward,
  // loss, backward, step. Record each loss (loss.item<double>()).
  (void)model, (void)x, (void)y, (void)steps, (void)lr;
  throw std::logic_error("TODO: train_sgd (exercises/05_mlp/mlp.cpp)");
}
