#include "autograd/checkpoint.h"

#include <array>

#include "autograd/autocast_mode.h"
#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "tensor/error.h"

namespace attic::autograd {

namespace {

std::vector<Generator*> with_default(const std::vector<Generator*>& given) {
  std::vector<Generator*> all{&default_generator()};
  for (Generator* g : given)
    if (g && g != &default_generator()) all.push_back(g);
  return all;
}

// The node a checkpoint leaves in the graph: it holds the inputs (detached) and fn, and
// nothing fn computed from them.
struct CheckpointBackward final : Node {
  CheckpointFn fn;
  std::vector<Tensor> saved;              // the inputs, detached: same storage, no graph
  std::vector<uint64_t> versions;         // their storages' versions at the forward
  std::vector<Generator*> generators;
  std::vector<std::array<uint64_t, 4>> states;  // each generator's state at the forward
  DType autocast = kFloat32;  // the autocast mode at the forward (float32: off)

  const char* name() const override { return "CheckpointBackward"; }

  std::vector<Tensor> backward(const Tensor& grad_output) override {
    ATTIC_CHECK(!GradMode::is_enabled(), "checkpoint: backward with create_graph is not "
                "supported (the recomputed graph would be recorded into the outer one)");
    for (size_t i = 0; i < saved.size(); ++i) {
      if (!saved[i].defined()) continue;
      const uint64_t now = saved[i].impl()->storage->version;
      ATTIC_CHECK(now == versions[i], "checkpoint: input ", i, " ", str(saved[i].shape()),
                  " was written in place after the forward (storage version ", versions[i],
                  ", now ", now, "); recomputing from it would not give the forward's values");
    }
    // Recompute from the forward's generator states, then put each generator back where
    // this backward found it.
    std::vector<std::array<uint64_t, 4>> now(generators.size());
    for (size_t i = 0; i < generators.size(); ++i) {
      now[i] = generators[i]->state();
      generators[i]->set_state(states[i]);
    }
    std::vector<Tensor> in(saved.size());
    for (size_t i = 0; i < saved.size(); ++i) {
      if (!saved[i].defined()) continue;
      in[i] = saved[i].detach();
      if (needs_grad(i)) in[i].requires_grad_(true);
    }
    Tensor out;
    {
      // In the forward's autocast mode too, so that the products round as they did there.
      EnableGradGuard on(true);
      const AutocastGuard cast(autocast);
      out = fn(in);
    }
    for (size_t i = 0; i < generators.size(); ++i) generators[i]->set_state(now[i]);
    ATTIC_CHECK(out.defined() && out.shape() == out_shape, "checkpoint: the recomputation "
                "returned shape ", out.defined() ? str(out.shape()) : std::string("(undefined)"),
                ", the forward ", str(out_shape), "; fn must compute the same thing twice");
    // The fresh graph's leaves are fn's parameters (their .grad accumulates, as in any
    // backward) and the detached inputs, whose .grad is what this node returns.
    if (out.requires_grad()) run_backward(out, grad_output, /*retain_graph=*/false,
                                          /*create_graph=*/false);
    std::vector<Tensor> grads(saved.size());
    for (size_t i = 0; i < saved.size(); ++i)
      if (in[i].defined() && needs_grad(i)) grads[i] = in[i].grad();
    return grads;
  }
};

}  // namespace

Tensor checkpoint(const CheckpointFn& fn, const std::vector<Tensor>& inputs,
                  const std::vector<Generator*>& generators) {
  ATTIC_CHECK(bool(fn), "checkpoint: fn is empty");
  if (!GradMode::is_enabled()) return fn(inputs);

  auto node = std::make_shared<CheckpointBackward>();
  node->fn = fn;
  node->generators = with_default(generators);
  for (Generator* g : node->generators) node->states.push_back(g->state());
  node->autocast = autocast_dtype();
  for (const Tensor& t : inputs) {
    node->saved.push_back(t.defined() ? t.detach() : Tensor());
    node->versions.push_back(t.defined() ? t.impl()->storage->version : 0);
  }
  Tensor out;
  {
    NoGradGuard off;
    out = fn(inputs);
  }
  ATTIC_CHECK(out.defined(), "checkpoint: fn returned an undefined tensor");
  out = out.detach();  // a new handle: fn may have returned an input itself
  // Always a node, even when no input requires grad: the parameters inside fn still do.
  connect(out, node, inputs);
  return out;
}

}  // namespace attic::autograd
