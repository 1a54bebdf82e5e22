// Chapter 6: an optimizer's state — step counts, moment buffers, each group's lr — as a
// dict of tensors, and a run resumed from it that ends on the same bits.
#include <iostream>

#include "nn/nn.h"
#include "optim/optim.h"

using namespace attic;

// A Linear(3, 2) and its AdamW, with the matrix decayed and the bias not.
struct Run {
  nn::Linear model{3, 2};
  optim::AdamW opt{{{.params = {model.weight}, .weight_decay = 0.1},
                    {.params = {model.bias}, .weight_decay = 0.0}},
                   optim::AdamWOptions(1e-2)};
};

// Steps it, it + 1, ..., it + n - 1 of a run on fixed data, with the cosine schedule.
void train(Run& run, int64_t it, int64_t n) {
  manual_seed(99);
  const Tensor x = randn({8, 3}), y = randn({8, 2});
  for (; n > 0; ++it, --n) {
    optim::set_lr(run.opt, optim::cosine_with_warmup(it, 1e-2, 1e-3, 2, 10));
    run.opt.zero_grad();
    mean(pow(run.model(x) - y, 2)).backward();
    run.opt.step();
  }
}

int main() {
  std::cout << std::boolalpha;
  manual_seed(0);
  Run straight;
  manual_seed(0);
  Run resumed;  // the same initial weights

  train(straight, 0, 6);

  train(resumed, 0, 4);
  nn::StateDict model_state = resumed.model.state_dict();
  nn::StateDict opt_state = resumed.opt.state_dict();
  for (const auto& [name, t] : opt_state)
    std::cout << name << " " << str(t.shape()) << " " << dtype_name(t.dtype()) << "\n";

  // A fresh model and optimizer, as a new process would build them, then load both dicts.
  manual_seed(123);
  Run fresh;
  fresh.model.load_state_dict(model_state);
  fresh.opt.load_state_dict(opt_state);
  std::cout << "restored lr of group 0: " << fresh.opt.param_groups()[0].lr << "\n";
  train(fresh, 4, 2);

  std::cout << "bit-identical weight: "
            << (fresh.model.weight.to_vector<float>() == straight.model.weight.to_vector<float>())
            << "\nbit-identical bias: "
            << (fresh.model.bias.to_vector<float>() == straight.model.bias.to_vector<float>())
            << "\n";
  return 0;
}
