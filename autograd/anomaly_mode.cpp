// Anomaly mode (see anomaly_mode.h): the per-thread flag, the creation record of each node,
// and the NaN/Inf checks of forward outputs and backward gradients.
#include "autograd/anomaly_mode.h"

#include <cmath>
#include <deque>

#include "autograd/node.h"

namespace attic::autograd {

namespace {

thread_local bool g_anomaly = false;
thread_local uint64_t g_ops_recorded = 0;     // since the last backward or turning it on
thread_local std::deque<std::string> g_last;  // names of the ops recorded just before

constexpr size_t kRecent = 3;

// How many NaNs and Infs t holds (0, 0 for integer tensors). t: any shape, any device.
struct NonFinite {
  int64_t nan = 0, inf = 0, first = -1;  // first: row-major index of the first one
  bool any() const { return nan + inf > 0; }
};

NonFinite count_non_finite(const Tensor& t) {
  NonFinite r;
  if (!t.defined() || !is_floating(t.dtype()) || t.numel() == 0) return r;
  NoGradGuard no_grad;
  Tensor c = t.detach();
  if (c.device() != Device::CPU) c = c.to(Device::CPU);
  const std::vector<double> v = c.to_vector<double>();
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isfinite(v[i])) continue;
    if (r.first < 0) r.first = int64_t(i);
    (std::isnan(v[i]) ? r.nan : r.inf)++;
  }
  return r;
}

// "2 NaN and 1 Inf among 6 values (the first at flat index 3)"
std::string describe(const NonFinite& r, int64_t numel) {
  std::string s;
  if (r.nan) s += std::to_string(r.nan) + " NaN";
  if (r.nan && r.inf) s += " and ";
  if (r.inf) s += std::to_string(r.inf) + " Inf";
  return s + " among " + std::to_string(numel) + " values (the first at flat index " +
         std::to_string(r.first) + ")";
}

// "MatmulBackward" made input 0: "Matmul [4, 3]"; a leaf: "leaf [4, 3]".
std::string producer(const Tensor& t) {
  if (!t.defined()) return "none";
  const std::string shape = str(t.shape());
  if (t.grad_fn()) return op_name(*t.grad_fn()) + " " + shape;
  return std::string(t.requires_grad() ? "leaf " : "constant ") + shape;
}

}  // namespace

bool AnomalyMode::is_enabled() { return g_anomaly; }

void AnomalyMode::set_enabled(bool enabled) {
  if (enabled && !g_anomaly) {
    g_ops_recorded = 0;
    g_last.clear();
  }
  g_anomaly = enabled;
}

void anomaly_backward_done() {
  g_ops_recorded = 0;
  g_last.clear();
}

std::string op_name(const Node& node) {
  std::string n = node.name();
  const std::string suffix = "Backward";
  if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
    n.resize(n.size() - suffix.size());
  return n;
}

void anomaly_record_forward(Node& node, const Tensor& out, const std::vector<Tensor>& inputs) {
  const std::string name = op_name(node);
  std::string site = "op #" + std::to_string(++g_ops_recorded) + " of the forward";
  if (!g_last.empty()) {
    site += ", right after ";
    for (size_t i = 0; i < g_last.size(); ++i) site += (i ? ", " : "") + g_last[i];
  }
  site += "; inputs: ";
  for (size_t i = 0; i < inputs.size(); ++i) site += (i ? ", " : "") + producer(inputs[i]);
  node.anomaly_site = site;
  g_last.push_back(name);
  if (g_last.size() > kRecent) g_last.pop_front();

  const NonFinite r = count_non_finite(out);
  if (!r.any()) return;
  // An Inf that an input already held is passed on, not made here (masked_fill's -inf).
  std::string held;
  bool input_inf = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const NonFinite ri = count_non_finite(inputs[i]);
    input_inf = input_inf || ri.inf > 0;
    if (ri.any()) held += "; input " + std::to_string(i) + " already held " +
                          describe(ri, inputs[i].numel());
  }
  if (r.nan == 0 && input_inf) return;
  fail("anomaly: forward of ", name, " produced ", describe(r, out.numel()),
              " in its output of shape ", str(out.shape()), held, ". ", name,
              " was created as ", site);
}

void anomaly_check_backward(const Node& node, const Tensor& grad_output,
                            const std::vector<Tensor>& grads,
                            const std::vector<std::string>& path) {
  for (size_t i = 0; i < grads.size(); ++i) {
    const NonFinite r = count_non_finite(grads[i]);
    if (!r.any()) continue;
    const NonFinite rin = count_non_finite(grad_output);
    std::string route;
    for (size_t k = 0; k < path.size(); ++k) route += (k ? " -> " : "") + path[k];
    fail("anomaly: ", node.name(), " returned ", describe(r, grads[i].numel()),
                " in the gradient of input ", i, " of shape ", str(grads[i].shape()),
                rin.any() ? " (its incoming gradient already held " +
                                describe(rin, grad_output.numel()) + ")"
                          : " (its incoming gradient was finite)",
                ". ", op_name(node), " was created as ",
                node.anomaly_site.empty() ? std::string("(not recorded: anomaly mode was off "
                                                        "during the forward)")
                                          : node.anomaly_site,
                ". Path from the root: ", route);
  }
}

}  // namespace attic::autograd
