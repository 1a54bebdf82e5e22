// Chapter 4 exercise, solved: mean squared error as an op with a hand-written backward.
//   loss = (1/N) sum_i (pred_i - target_i)^2          pred [N], target [N] -> []
//   dpred = g 2 (pred - target) / N,  dtarget = -dpred
// By hand at pred = [1, 2, 3], target = [0, 1, 5]: pred - target = [1, 1, -2],
//   loss = (1 + 1 + 4) / 3 = 2,  dpred = (2/3) [1, 1, -2] = [0.6667, 0.6667, -1.3333]
#include <iostream>

#include "autograd/gradcheck.h"
#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "ops/ops.h"

using namespace attic;

// Saves diff = pred - target [N].
struct MseBackward final : autograd::Node {
  Tensor diff;
  const char* name() const override { return "MseBackward"; }
  // g: [] -> {dpred [N], dtarget [N]}
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor dpred = g * diff * (2.0 / double(diff.numel()));
    return {needs_grad(0) ? dpred : Tensor(), needs_grad(1) ? -dpred : Tensor()};
  }
};

// pred [N], target [N] -> [].
Tensor mse(const Tensor& pred, const Tensor& target) {
  ATTIC_CHECK(pred.shape() == target.shape(), "mse: pred ", str(pred.shape()), " and target ",
              str(target.shape()), " differ");
  Tensor diff, out;
  {
    NoGradGuard no_grad;
    diff = pred - target;
    out = mean(diff * diff);
  }
  if (autograd::needs_grad({pred, target})) {
    auto node = std::make_shared<MseBackward>();
    node->diff = diff;
    autograd::connect(out, node, {pred, target});
  }
  return out;
}

int main() {
  std::cout << std::boolalpha;
  Tensor pred = tensor({1, 2, 3}).requires_grad_();
  Tensor target = tensor({0, 1, 5}).requires_grad_();
  Tensor loss = mse(pred, target);
  loss.backward();
  std::cout << "loss = " << loss << "\n";
  std::cout << "dpred = " << pred.grad() << "\n";
  std::cout << "dtarget = " << target.grad() << "\n";

  manual_seed(3);
  auto f = [](const std::vector<Tensor>& in) { return mse(in[0], in[1]); };
  std::cout << "gradcheck, both inputs: "
            << autograd::gradcheck(f, {randn({5}, kFloat64).requires_grad_(),
                                       randn({5}, kFloat64).requires_grad_()})
            << "\n";
  std::cout << "gradcheck, target constant: "
            << autograd::gradcheck(f, {randn({5}, kFloat64).requires_grad_(),
                                       randn({5}, kFloat64)})
            << "\n";
  try {
    mse(pred, tensor({1, 2}));
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
  }
  return 0;
}
