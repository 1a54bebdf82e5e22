// Optimizer: the base of SGD, Adam and AdamW, in the shape of libtorch's (and PyTorch's).
//
//   optim::AdamW opt(model.parameters(), optim::AdamWOptions(3e-4).weight_decay(0.1));
//   for (...) {
//     opt.zero_grad();
//     Tensor loss = ...;
//     loss.backward();
//     opt.step();
//   }
//
// Parameters come in groups. Each group may set its own lr and weight_decay; the rest of
// the options (momentum, betas, eps) are the optimizer's. nanoGPT, for example, decays its
// matrices and not its biases or LayerNorm weights:
//
//   optim::AdamW opt({{.params = matrices, .weight_decay = 0.1},
//                     {.params = vectors, .weight_decay = 0.0}}, optim::AdamWOptions(6e-4));
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "nn/module.h"
#include "ops/ops.h"

namespace attic::optim {

// "Not set": a group field with this value takes the optimizer's default.
inline constexpr double kUseDefault = std::numeric_limits<double>::quiet_NaN();

struct ParamGroup {
  std::vector<Tensor> params;
  double lr = kUseDefault;            // set by the optimizer's constructor when left out
  double weight_decay = kUseDefault;  // likewise
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  // One update of every parameter that has a .grad; parameters without one are skipped.
  // Runs under NoGradGuard: the update is not part of any graph.
  virtual void step() = 0;

  // Clears the .grad of every parameter (PyTorch's set_to_none = True).
  void zero_grad();

  std::vector<ParamGroup>& param_groups() { return groups_; }
  const std::vector<ParamGroup>& param_groups() const { return groups_; }
  // Adds a group; its unset fields take the optimizer's defaults.
  void add_param_group(ParamGroup group);

  // The state as plain CPU tensors, by the parameter's position across groups (group 0's
  // parameters first):
  //   "state.3.step"            [] int64     updates applied to parameter 3
  //   "state.3.exp_avg" ...     p's shape    the optimizer's buffers for parameter 3
  //   "group.0.lr"              [] float64   so a resumed run continues its schedule
  //   "group.0.weight_decay"    [] float64
  //   "group.0.num_params"      [] int64     checked on load
  // Parameters that were never updated have no entries. The tensors are copies.
  virtual nn::StateDict state_dict() const;
  // Restores what state_dict() saved into an optimizer built over the same parameters, in
  // the same groups. Checks every key, count and shape before changing anything.
  virtual void load_state_dict(const nn::StateDict& dict);

 protected:
  // name: "SGD", "Adam", ... for messages. default_lr and default_weight_decay fill the
  // groups' unset fields.
  Optimizer(const char* name, std::vector<ParamGroup> groups, double default_lr,
            double default_weight_decay);

  // What the optimizer keeps for one parameter.
  struct ParamState {
    int64_t step = 0;                       // updates applied so far
    std::map<std::string, Tensor> buffers;  // "momentum_buffer", "exp_avg", ... shaped like p
  };
  // The state of p, made empty on first use.
  ParamState& state(const Tensor& p) { return state_[p.impl()]; }
  // The buffer names every ParamState of this optimizer holds once it has stepped.
  virtual std::vector<std::string> buffer_names() const = 0;

  const char* name_;

 private:
  void check_group(const ParamGroup& group, size_t index) const;
  std::vector<ParamGroup> groups_;
  double default_lr_, default_weight_decay_;
  std::unordered_map<const TensorImpl*, ParamState> state_;
};

// Checks that value >= 0 for an option; the message names the optimizer, the option and the
// value: "SGD: invalid lr -0.1 (must be >= 0)".
void check_non_negative(const char* optimizer, const char* option, double value);

}  // namespace attic::optim
