#include "optim/sgd.h"

namespace attic::optim {

SGD::SGD(std::vector<Tensor> params, const SGDOptions& options)
    : SGD(std::vector<ParamGroup>{{.params = std::move(params)}}, options) {}

SGD::SGD(std::vector<ParamGroup> groups, const SGDOptions& options)
    : Optimizer("SGD", std::move(groups), options.lr(), options.weight_decay()),
      options_(options) {
  check_non_negative(name_, "momentum", options.momentum());
  ATTIC_CHECK(!options.nesterov() || (options.momentum() > 0 && options.dampening() == 0),
              "SGD: nesterov momentum requires momentum > 0 and dampening 0, got momentum ",
              options.momentum(), " and dampening ", options.dampening());
}

std::vector<std::string> SGD::buffer_names() const {
  if (options_.momentum() == 0) return {};
  return {"momentum_buffer"};
}

// Every parameter p with a gradient g, both shaped like p:
//   g = g + wd p;  b = g (first step) or m b + (1 - d) g;  g = g + m b or b;  p -= lr g
void SGD::step() {
  NoGradGuard no_grad;
  const double m = options_.momentum(), d = options_.dampening();
  for (ParamGroup& group : param_groups()) {
    for (Tensor& p : group.params) {
      Tensor g = p.grad();
      if (!g.defined()) continue;
      // Out of place: p.grad() itself is left as backward made it.
      if (group.weight_decay != 0) g = g + p * group.weight_decay;
      ParamState& st = state(p);
      ++st.step;
      if (m != 0) {
        auto it = st.buffers.find("momentum_buffer");
        if (it == st.buffers.end()) {
          it = st.buffers.emplace("momentum_buffer", g.clone()).first;
        } else {
          it->second.mul_(m).add_(g, 1 - d);
        }
        g = options_.nesterov() ? g + it->second * m : it->second;
      }
      p.add_(g, -group.lr);
    }
  }
}

}  // namespace attic::optim
