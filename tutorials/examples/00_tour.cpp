// Chapter 0: the whole book in one small program. A tensor, ops recorded in a graph, the
// graph printed, a gradient, one optimizer step.
//   loss = relu(x w) with x = [1, 2, 3], w = [1, -1, 2]ᵀ:  1 - 2 + 6 = 5
//   d loss / d w = xᵀ = [1, 2, 3]ᵀ   (relu passes the gradient: 5 > 0)
//   SGD, lr 0.1:  w = [1, -1, 2] - 0.1 [1, 2, 3] = [0.9, -1.2, 1.7];  loss = 3.6
#include <cstdio>
#include <iostream>

#include "autograd/graph.h"
#include "optim/optim.h"

using namespace attic;

int main() {
  Tensor x = tensor({{1, 2, 3}});                           // [1, 3]     chapter 1
  Tensor w = tensor({{1}, {-1}, {2}}).requires_grad_();     // [3, 1]
  Tensor loss = sum(relu(matmul(x, w)));                    //            chapter 3
  autograd::print_graph(loss, {{"w", w}});                  //            chapter 16
  loss.backward();
  std::cout << "loss " << loss.item<float>() << ", w.grad " << w.grad().t() << "\n";

  optim::SGD opt({w}, optim::SGDOptions(0.1));              //            chapter 5
  opt.step();
  std::printf("after one step: loss %.1f\n", sum(relu(matmul(x, w))).item<float>());
  return 0;
}
