// Chapter 6: AdamW with nanoGPT's two parameter groups. Tensors with 2 or more dims
// (weight matrices, embeddings) decay; biases and LayerNorm weights do not.
#include <cstdio>
#include <iostream>

#include "nn/nn.h"
#include "optim/optim.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  manual_seed(0);
  nn::Sequential mlp{std::make_shared<nn::Linear>(4, 16), std::make_shared<nn::GELU>(),
                     std::make_shared<nn::LayerNorm>(16), std::make_shared<nn::Linear>(16, 4)};

  // nanoGPT's configure_optimizers: split by p.dim() >= 2.
  const optim::DecayGroups groups = optim::decay_groups(mlp);
  for (const auto& [name, p] : groups.decay)
    std::cout << "decay     " << name << " " << str(p.shape()) << "\n";
  for (const auto& [name, p] : groups.no_decay)
    std::cout << "no decay  " << name << " " << str(p.shape()) << "\n";
  std::cout << groups.summary();

  // One AdamW over the two groups: {.params = groups.decay's, .weight_decay = wd} and
  // {.params = groups.no_decay's, .weight_decay = 0}.
  const double lr = 1e-3, wd = 0.1;
  optim::AdamW opt = optim::configure_optimizers(mlp, wd, lr, {0.9, 0.95});

  // One step. On the first step m̂ = g and v̂ = g², so the update is lr g / (|g| + eps):
  //   p1 = p0 (1 - lr wd) - lr g / (|g| + eps)      (wd = 0 for the second group)
  std::vector<Tensor> before;
  for (const Tensor& p : mlp.parameters()) before.push_back(p.detach().clone());
  Tensor x = randn({8, 4}), target = randn({8, 4});
  opt.zero_grad();
  Tensor loss = mean(pow(mlp(x) - target, 2));
  loss.backward();
  opt.step();

  double worst = 0;
  std::vector<Tensor> params = mlp.parameters();
  for (size_t i = 0; i < params.size(); ++i) {
    const Tensor& p = params[i];
    const Tensor g = p.grad();
    const double decay_i = p.dim() >= 2 ? wd : 0.0;
    Tensor expected = before[i] * (1 - lr * decay_i) - g / (abs(g) + 1e-8) * lr;
    worst = std::max(worst, max(abs(p.detach() - expected)).item<double>());
  }
  std::cout << "first step matches the formula to 1e-6: " << (worst < 1e-6) << "\n";
  // The LayerNorm weight started at 1 and each element moved by lr, with no decay toward 0.
  std::cout << "LayerNorm weight[:4] after one step: "
            << mlp.named_parameters()[2].second.detach().slice(0, 0, 4) << "\n";
  return 0;
}
