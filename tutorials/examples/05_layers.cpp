// Chapter 5: the library's layers (Linear, GELU, LayerNorm) chained by Sequential, and
// initialization with nn::init.
#include <cmath>
#include <iostream>

#include "nn/nn.h"

using namespace attic;

int main() {
  std::cout << std::boolalpha;
  manual_seed(0);
  // x [N, 4] -> Linear -> [N, 16] -> GELU -> LayerNorm -> Linear -> [N, 2]
  nn::Sequential mlp{std::make_shared<nn::Linear>(4, 16), std::make_shared<nn::GELU>(),
                     std::make_shared<nn::LayerNorm>(16), std::make_shared<nn::Linear>(16, 2)};
  for (const auto& [name, p] : mlp.named_parameters())
    std::cout << name << " " << str(p.shape()) << "\n";
  // 4·16 + 16 + 16 + 16 + 16·2 + 2
  std::cout << "num_parameters: " << mlp.num_parameters() << "\n";
  Tensor y = mlp(randn({5, 4}));
  std::cout << "output shape " << str(y.shape()) << "\n";

  // Linear's default init (PyTorch's): U[-1/√in, 1/√in]. For in = 4 that is ±0.5.
  nn::Linear fc(4, 16);
  std::cout << "max |w| <= 0.5: " << (max(abs(fc.weight)).item<float>() <= 0.5f) << "\n";

  // GPT-2's init, as nanoGPT does it: weights ~ N(0, 0.02²), biases 0.
  nn::Linear big(768, 768);
  nn::init::normal_(big.weight, 0.0, 0.02);
  nn::init::zeros_(big.bias);
  const double std_w = std::sqrt(var(big.weight).item<double>());
  std::cout << "std of the 768x768 weight: " << std::round(std_w * 1e4) / 1e4 << "\n";
  std::cout << "bias: " << sum(abs(big.bias)).item<float>() << "\n";
  return 0;
}
