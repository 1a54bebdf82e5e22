// The check of chapter 5's exercise: MyLinear against nn::Linear, the MLP's parameter names,
// shapes and function, and train_sgd against the same loop written here.
#include "tests/catch.h"

#include <cmath>
#include <string>

#include "mlp.h"
#include "optim/optim.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

double max_abs_diff(const Tensor& a, const Tensor& b) {
  return max(abs(a.detach() - b.detach())).item<double>();
}

// "name [d0, d1]" for each parameter, in registration order.
std::vector<std::string> names_and_shapes(const nn::Module& m) {
  std::vector<std::string> out;
  for (const auto& [name, p] : m.named_parameters()) out.push_back(name + " " + str(p.shape()));
  return out;
}

}  // namespace

TEST_CASE("MyLinear registers weight [out, in] and bias [out], initialized as PyTorch does") {
  set_num_threads(1);
  manual_seed(0);
  MyLinear fc(16, 5);
  REQUIRE(names_and_shapes(fc) == std::vector<std::string>{"weight [5, 16]", "bias [5]"});
  CHECK(fc.weight.requires_grad());
  CHECK(fc.bias.requires_grad());
  // U[-1/√16, 1/√16] = U[-0.25, 0.25]: inside the bounds, and spread over them (std 0.25/√3).
  CHECK(max(abs(fc.weight)).item<double>() <= 0.25);
  CHECK(max(abs(fc.bias)).item<double>() <= 0.25);
  CHECK(std::sqrt(var(fc.weight).item<double>()) == Approx(0.25 / std::sqrt(3.0)).epsilon(0.2));
}

TEST_CASE("MyLinear computes what nn::Linear computes with the same weights") {
  set_num_threads(1);
  manual_seed(1);
  MyLinear mine(3, 4);
  nn::Linear ref(3, 4);
  ref.load_state_dict(mine.state_dict());  // same names, same shapes: the weights carry over
  const Tensor x2 = randn({6, 3}), x3 = randn({2, 5, 3});
  CHECK(max_abs_diff(mine(x2), ref(x2)) < 1e-6);
  CHECK(max_abs_diff(mine(x3), ref(x3)) < 1e-6);
  CHECK(mine(x3).shape() == Shape{2, 5, 4});
}

TEST_CASE("MLP has nanoGPT's names and shapes and computes c_proj(gelu(c_fc(x)))") {
  set_num_threads(1);
  manual_seed(2);
  MLP mlp(8);
  REQUIRE(names_and_shapes(mlp) ==
          std::vector<std::string>{"c_fc.weight [32, 8]", "c_fc.bias [32]",
                                   "c_proj.weight [8, 32]", "c_proj.bias [8]"});
  CHECK(mlp.num_parameters() == 8 * 32 + 32 + 32 * 8 + 8);
  const Tensor x = randn({3, 7, 8});
  const Tensor h = gelu(matmul(x, mlp.c_fc->weight.t()) + mlp.c_fc->bias);
  const Tensor want = matmul(h, mlp.c_proj->weight.t()) + mlp.c_proj->bias;
  CHECK(max_abs_diff(mlp(x), want) < 1e-5);
  mlp.eval();
  CHECK_FALSE(mlp.c_fc->is_training());  // eval() reached the children: they are registered
}

TEST_CASE("train_sgd lowers the loss, and matches the loop zero_grad, forward, backward, step") {
  set_num_threads(1);
  manual_seed(3);
  const Tensor x = randn({64, 4});
  const Tensor y = sin(x);
  MLP mine(4), ref(4);
  ref.load_state_dict(mine.state_dict());  // two copies of one model

  const std::vector<double> losses = train_sgd(mine, x, y, 100, 0.1);
  REQUIRE(losses.size() == 100);
  CHECK(losses.back() < 0.5 * losses.front());

  optim::SGD opt(ref.parameters(), optim::SGDOptions(0.1));
  for (int step = 0; step < 100; ++step) {
    opt.zero_grad();
    Tensor loss = mean(pow(ref(x) - y, 2));
    loss.backward();
    opt.step();
    INFO("step " << step);
    REQUIRE(losses[size_t(step)] == Approx(loss.item<double>()).epsilon(1e-4));
  }
  for (const auto& [name, p] : ref.named_parameters()) {
    INFO(name);
    CHECK(max_abs_diff(mine.state_dict().at(name), p) < 1e-4);
  }
}
