// nn::Module: the base of every layer and model, in the shape of libtorch's C++ frontend.
//
//   struct Mlp : nn::Module {
//     std::shared_ptr<nn::Linear> fc;
//     Mlp() { fc = register_module("fc", std::make_shared<nn::Linear>(4, 2)); }
//     Tensor forward(const Tensor& x) { return fc->forward(x); }
//   };
//
// C++ has no reflection, so a module lists what it owns: register_parameter (trained
// tensors), register_buffer (saved but not trained) and register_module (children).
// named_parameters() then walks the tree with dotted names ("fc.weight").
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ops/ops.h"

namespace attic::nn {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;
// name -> tensor, sorted by name; what state_dict() returns and load_state_dict() takes.
using StateDict = std::map<std::string, Tensor>;

class Module {
 public:
  virtual ~Module() = default;

  // Registers t as a parameter (a leaf that requires grad) and returns it.
  Tensor register_parameter(const std::string& name, Tensor t, bool requires_grad = true);
  // A buffer moves with to() and is listed by named_buffers(); a persistent one is also
  // saved and loaded with the state dict. A non-persistent one (persistent = false) is
  // left out of it: state that is derived, not learned (PyTorch's register_buffer).
  Tensor register_buffer(const std::string& name, Tensor t, bool persistent = true);
  // Replaces the tensor registered under name (same shape): how weights are tied, e.g.
  // lm_head.weight becomes the very tensor of wte.weight. Returns t.
  Tensor replace_parameter(const std::string& name, Tensor t);
  template <class M>
  std::shared_ptr<M> register_module(const std::string& name, std::shared_ptr<M> m) {
    add_child(name, m);
    return m;
  }

  // Parameters of this module and its descendants, in registration order, with dotted
  // names. A tensor registered twice (tied weights) appears once, under its first name.
  NamedTensors named_parameters(bool recurse = true) const;
  std::vector<Tensor> parameters(bool recurse = true) const;
  NamedTensors named_buffers(bool recurse = true) const;
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> named_children() const;

  // Sets training mode here and in every descendant (dropout reads it).
  virtual void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const { return training_; }

  // Clears the .grad of every parameter (backward then starts from nothing).
  void zero_grad();

  // Moves every parameter and buffer to device, in place: handles held elsewhere (an
  // optimizer, a tied module) see the move too.
  void to(Device device);

  // Every parameter and persistent buffer by dotted name. Tied tensors appear under each of their
  // names, as in PyTorch, so that the dict loads into a model that expects each name.
  StateDict state_dict() const;
  // Copies values in. strict: every name of the dict must be the module's, and every name
  // of the module must be in the dict, except that of tied names (one tensor, such as GPT's
  // lm_head.weight and transformer.wte.weight) one is enough; tied names given twice must
  // hold equal values. Shapes and dtypes must match. Tied tensors stay tied.
  void load_state_dict(const StateDict& dict, bool strict = true);

  // Names of this module's own parameters (not its children's) that must not decay, even
  // though they are matrices: vectors stored with extra dims, phases, gains. Read by
  // optim::decay_groups; timm's models answer the same question with no_weight_decay().
  virtual std::vector<std::string> no_weight_decay() const { return {}; }

  // Number of elements over named_parameters() (tied tensors count once).
  int64_t num_parameters() const;

 protected:
  bool training_ = true;

 private:
  void add_child(const std::string& name, std::shared_ptr<Module> m);
  void collect(const std::string& prefix, bool recurse, bool buffers, bool dedup,
               NamedTensors& out, std::vector<const TensorImpl*>& seen,
               bool persistent_only = false) const;

  NamedTensors params_;
  NamedTensors buffers_;
  std::vector<std::string> non_persistent_;  // names in buffers_ that state_dict() leaves out
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> children_;
};

// A module with one tensor in and one tensor out: what Sequential chains.
class UnaryModule : public Module {
 public:
  virtual Tensor forward(const Tensor& x) = 0;
  Tensor operator()(const Tensor& x) { return forward(x); }
};

}  // namespace attic::nn
