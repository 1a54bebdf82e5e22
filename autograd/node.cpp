// Recording the graph: which ops make nodes, how edges are wired, and how a deep graph is
// freed without recursion.
#include "autograd/node.h"

#include <atomic>

#include "autograd/anomaly_mode.h"

namespace attic::autograd {

static thread_local bool g_grad_enabled = true;
bool GradMode::is_enabled() { return g_grad_enabled; }
void GradMode::set_enabled(bool enabled) { g_grad_enabled = enabled; }

static std::atomic<uint64_t> g_next_sequence_nr{0};

bool needs_grad(std::initializer_list<Tensor> inputs) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : inputs)
    if (t.defined() && t.requires_grad()) return true;
  return false;
}

bool needs_grad(const std::vector<Tensor>& inputs) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor& t : inputs)
    if (t.defined() && t.requires_grad()) return true;
  return false;
}

template <class Range>
static void connect_impl(Tensor& out, std::shared_ptr<Node> node, const Range& inputs) {
  node->inputs.clear();
  for (const Tensor& t : inputs) {
    Edge e;
    if (t.defined()) {
      e.shape = t.shape();
      e.dtype = t.dtype();
      e.device = t.device();
      if (t.requires_grad()) {
        if (t.grad_fn()) e.fn = t.grad_fn();
        else e.leaf = t.impl_ptr();
      }
    }
    node->inputs.push_back(std::move(e));
  }
  node->out_shape = out.shape();
  node->sequence_nr = g_next_sequence_nr++;
  if (AnomalyMode::is_enabled())
    anomaly_record_forward(*node, out, std::vector<Tensor>(inputs.begin(), inputs.end()));
  out.impl()->requires_grad = true;
  out.impl()->grad_fn = std::move(node);
}

const char* node_name(const Node& node) { return node.name(); }

Tensor Node::output_in_graph(const Tensor& saved_output) {
  Tensor y = saved_output.detach();
  y.impl()->requires_grad = true;
  y.impl()->grad_fn = shared_from_this();
  return y;
}

void connect(Tensor& out, std::shared_ptr<Node> node, std::initializer_list<Tensor> inputs) {
  connect_impl(out, std::move(node), inputs);
}
void connect(Tensor& out, std::shared_ptr<Node> node, const std::vector<Tensor>& inputs) {
  connect_impl(out, std::move(node), inputs);
}

// The graveyard: a node being destroyed hands its edges here instead of destroying them
// inside its own destructor. The outermost call drains the list in a loop, so freeing a
// chain of any depth uses constant stack.
void release_later(std::shared_ptr<Node>&& node) {
  static thread_local std::vector<std::shared_ptr<Node>> graveyard;
  static thread_local bool draining = false;
  if (!node) return;
  graveyard.push_back(std::move(node));
  if (draining) return;
  draining = true;
  while (!graveyard.empty()) {
    std::shared_ptr<Node> n = std::move(graveyard.back());
    graveyard.pop_back();
    n.reset();  // may push this node's own edges onto the graveyard
  }
  draining = false;
}

Node::~Node() {
  for (Edge& e : inputs) release_later(std::move(e.fn));
}

}  // namespace attic::autograd
