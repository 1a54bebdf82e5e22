// Chapter 5: a module from scratch. A module registers what it owns (parameters, buffers,
// child modules) and gets named_parameters, train/eval, zero_grad and state_dict from
// nn::Module.
#include <iostream>

#include "nn/nn.h"

using namespace attic;

// y = x * scale + shift over the last dim: x [..., C] -> [..., C].
struct Affine : nn::UnaryModule {
  Tensor scale, shift;  // [C]
  explicit Affine(int64_t C) {
    scale = register_parameter("scale", ones({C}));
    shift = register_parameter("shift", zeros({C}));
  }
  Tensor forward(const Tensor& x) override { return x * scale + shift; }
};

// Subtracts a fixed center, then Affine, then Linear: x [N, 3] -> [N, 2].
struct Net : nn::UnaryModule {
  Tensor center;  // [3], a buffer: saved with the model, never trained
  std::shared_ptr<Affine> pre;
  std::shared_ptr<nn::Linear> fc;
  Net() {
    center = register_buffer("center", tensor({1, 2, 3}));
    pre = register_module("pre", std::make_shared<Affine>(3));
    fc = register_module("fc", std::make_shared<nn::Linear>(3, 2));
  }
  Tensor forward(const Tensor& x) override { return fc->forward(pre->forward(x - center)); }
};

int main() {
  std::cout << std::boolalpha;
  manual_seed(0);
  Net net;

  // Dotted names follow the tree of registered children, in registration order.
  for (const auto& [name, p] : net.named_parameters())
    std::cout << name << " " << str(p.shape()) << "\n";
  std::cout << "num_parameters: " << net.num_parameters() << "\n";

  // train() / eval() set the mode of the whole tree (Dropout reads it).
  net.eval();
  std::cout << "after eval(): net " << net.is_training() << ", fc " << net.fc->is_training()
            << "\n";
  net.train();

  // Gradients land in every parameter; zero_grad clears them all.
  Tensor x = tensor({{1, 2, 3}, {4, 5, 6}});
  sum(net(x)).backward();
  std::cout << "pre.scale.grad defined: " << net.pre->scale.grad().defined() << "\n";
  net.zero_grad();
  std::cout << "after zero_grad: " << net.pre->scale.grad().defined() << "\n";

  // state_dict: parameters and buffers by name, sorted. Another Net loads it and then
  // computes the same function.
  for (const auto& [name, t] : net.state_dict()) std::cout << "  " << name << "\n";
  Net copy;
  copy.load_state_dict(net.state_dict());
  std::cout << "same outputs after load: "
            << (net(x).to_vector<float>() == copy(x).to_vector<float>()) << "\n";

  // A dict that does not fit is refused by name.
  nn::StateDict bad = net.state_dict();
  bad["fc.weight"] = zeros({3, 2});
  try {
    copy.load_state_dict(bad);
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
  }
  return 0;
}
