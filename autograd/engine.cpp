// The backward engine.
//
//   1. Find every node reachable from the root and count, for each, how many edges point
//      at it (its dependencies). Iterative DFS: no recursion, so depth is unlimited.
//   2. Start at the root with grad_output = `grad` (1 for a one-element root).
//   3. Run nodes in an order where a node runs only after every node that feeds it a
//      gradient has run (Kahn's algorithm; ties go to the newest node, as in PyTorch).
//      Gradients arriving at a node from several consumers are summed first.
//   4. A gradient reaching a leaf ADDS into leaf.grad. That is why a training loop zeroes
//      the gradients between steps, and why calling backward twice doubles them.
//   5. In anomaly mode (anomaly_mode.h), every gradient a node returns is checked for NaN
//      and Inf before it flows on; the first one raises, naming the node and its path.
//   6. Without retain_graph, each node is marked released and its edges dropped once it
//      has run, so the activations it held can go; a second backward through it throws.
#include <queue>
#include <unordered_map>

#include "autograd/anomaly_mode.h"
#include "autograd/node.h"

namespace attic::autograd {

// leaf.grad += g, outside the graph unless create_graph asked for one.
static void accumulate(TensorImpl& leaf, Tensor g) {
  // The first gradient is copied, so that .grad never aliases a tensor that the graph or
  // another leaf still holds (an in-place change to one .grad must not reach another).
  // A contiguous gradient that nothing else can reach (this is the only handle to it and to
  // its storage) is taken as it is instead, as PyTorch's AccumulateGrad does: no copy. (A
  // strided one, such as the transposed view a weight used as Wᵀ gets, is copied: the
  // optimizer's kernels want .grad contiguous, like the parameter.)
  if (!leaf.grad && !GradMode::is_enabled() && g.impl_ptr().use_count() == 1 &&
      g.impl()->storage.use_count() == 1 && !g.grad_fn() && g.is_contiguous()) {
    leaf.grad = g.impl_ptr();
    return;
  }
  // A .grad that only this leaf holds (no handle to it or its storage elsewhere) takes g in
  // place: a weight used in several places (an embedding tied to the output layer, one x
  // read by many heads) then costs one pass per use, not a new sum each time.
  // (A .grad set by hand may be any view, so it must be contiguous too.)
  if (leaf.grad && !GradMode::is_enabled() && leaf.grad.use_count() == 1 &&
      leaf.grad->storage.use_count() == 1 && g.dtype() == leaf.grad->dtype) {
    Tensor held(leaf.grad);
    if (held.is_contiguous()) {
      held.add_(g);
      return;
    }
  }
  Tensor next = leaf.grad ? add_gradients(Tensor(leaf.grad), g) : g.clone();
  leaf.grad = GradMode::is_enabled() ? next.impl_ptr() : next.detach().impl_ptr();
}

// slot += g, for the gradients that reach one node from several consumers. In place when
// slot is a contiguous sum that nothing else holds (no other handle to it or to its storage,
// no graph to record): one pass, and no new buffer. Otherwise a new sum: the first gradient
// may be one a node returned for two inputs at once, a view of another, or an expanded view
// (sum's backward broadcasts its 0-d gradient: every element is the same float in memory).
static void add_gradient(Tensor& slot, const Tensor& g) {
  if (!slot.defined()) {
    slot = g;
  } else if (!GradMode::is_enabled() && slot.impl_ptr().use_count() == 1 &&
             slot.impl()->storage.use_count() == 1 && !slot.grad_fn() &&
             slot.is_contiguous() && slot.dtype() == g.dtype()) {
    slot.add_(g);
  } else {
    slot = add_gradients(slot, g);
  }
}

void run_backward(const Tensor& root, const Tensor& grad, bool retain_graph,
                  bool create_graph) {
  ATTIC_CHECK(root.defined(), "backward: called on an undefined tensor");
  ATTIC_CHECK(root.requires_grad(),
              "backward: tensor does not require grad and has no grad_fn");
  Tensor seed = grad;
  if (!seed.defined()) {
    ATTIC_CHECK(root.numel() == 1, "backward: grad can be implicitly created only for a "
                "one-element output, got shape ", str(root.shape()));
    seed = ones_like(root);
  }
  ATTIC_CHECK(seed.shape() == root.shape(), "backward: grad of shape ", str(seed.shape()),
              " does not match the output's shape ", str(root.shape()));

  EnableGradGuard mode(create_graph);
  if (root.is_leaf()) {
    accumulate(*root.impl(), seed);
    return;
  }

  // 1. dependencies (and, in anomaly mode, which node first reached each one)
  const bool anomaly = AnomalyMode::is_enabled();
  std::unordered_map<Node*, int> deps;
  // child -> (parent, parent's name): names are taken now, as a parent may be freed by the
  // time its child runs; the pointers are only keys.
  std::unordered_map<const Node*, std::pair<const Node*, const char*>> reached_from;
  std::vector<std::shared_ptr<Node>> stack{root.grad_fn()};
  deps[root.grad_fn().get()] = 0;
  while (!stack.empty()) {
    std::shared_ptr<Node> n = std::move(stack.back());
    stack.pop_back();
    ATTIC_CHECK(!n->released, "backward: trying to backward through ", n->name(),
                " again; its graph was freed by an earlier backward "
                "(pass retain_graph=true to keep it)");
    for (const Edge& e : n->inputs) {
      if (!e.fn) continue;
      auto [it, inserted] = deps.try_emplace(e.fn.get(), 0);
      ++it->second;
      if (inserted) {
        if (anomaly) reached_from[e.fn.get()] = {n.get(), n->name()};
        stack.push_back(e.fn);
      }
    }
  }

  // 2-3. run in topological order
  auto later_first = [](const std::shared_ptr<Node>& a, const std::shared_ptr<Node>& b) {
    return a->sequence_nr < b->sequence_nr;
  };
  std::priority_queue<std::shared_ptr<Node>, std::vector<std::shared_ptr<Node>>,
                      decltype(later_first)> ready(later_first);
  std::unordered_map<Node*, Tensor> pending;  // summed grad_output of nodes not yet run
  ready.push(root.grad_fn());
  pending[root.grad_fn().get()] = seed;

  while (!ready.empty()) {
    std::shared_ptr<Node> node = ready.top();
    ready.pop();
    Tensor grad_output = std::move(pending[node.get()]);
    pending.erase(node.get());

    if (auto out = node->retained_output.lock()) accumulate(*out, grad_output);

    std::vector<Tensor> grads = node->backward(grad_output);
    ATTIC_CHECK(grads.size() == node->inputs.size(), "backward: ", node->name(), " returned ",
                grads.size(), " gradients for ", node->inputs.size(), " inputs");
    if (anomaly) {
      std::vector<std::string> path{node->name()};
      for (auto it = reached_from.find(node.get()); it != reached_from.end();
           it = reached_from.find(it->second.first))
        path.push_back(it->second.second);
      anomaly_check_backward(*node, grad_output, grads, {path.rbegin(), path.rend()});
    }
    // Let go of the incoming gradient before the gradients flow on (but after the anomaly
    // check, which reports whether it already held a NaN): a returned gradient that is a
    // view of it (a reshape's, say) then holds its storage alone, and can become a leaf's
    // .grad without a copy (accumulate).
    grad_output = Tensor();

    for (size_t i = 0; i < grads.size(); ++i) {
      const Edge& e = node->inputs[i];
      if (!e.needed()) continue;
      const Tensor& g = grads[i];
      if (g.defined())
        ATTIC_CHECK(g.shape() == e.shape, "backward: ", node->name(), " returned a gradient of "
                    "shape ", str(g.shape()), " for input ", i, " of shape ", str(e.shape));
      if (!e.fn) {
        if (auto leaf = e.leaf.lock(); leaf && g.defined()) accumulate(*leaf, std::move(grads[i]));
        continue;
      }
      Tensor& slot = pending[e.fn.get()];
      if (g.defined()) add_gradient(slot, g);
      if (--deps[e.fn.get()] == 0) {
        // A consumer that produced no gradient still counts: a zero gradient flows on.
        if (!slot.defined())
          slot = zeros(e.fn->out_shape, TensorOptions(e.dtype).device(e.device));
        ready.push(e.fn);
      }
    }
    if (!retain_graph) {
      node->released = true;
      for (Edge& e : node->inputs) release_later(std::move(e.fn));
      node->inputs.clear();
    }
  }
  if (anomaly) anomaly_backward_done();
}

}  // namespace attic::autograd
