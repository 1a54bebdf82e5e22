// Anomaly mode: find the op that made the first NaN or Inf, as torch.autograd.detect_anomaly.
//
//   {
//     autograd::DetectAnomalyGuard anomaly;   // on for this thread until the guard ends
//     Tensor loss = model.forward(x, y).loss;
//     loss.backward();                        // throws attic::Error at the first NaN/Inf
//   }
//
// While it is on:
//   - forward: every op that records a node checks its output. NaN always raises; an Inf
//     raises only when none of the op's inputs held an Inf (so masked_fill's deliberate -inf
//     and its downstream softmax pass, while exp overflowing or log(0) raise);
//   - backward: every gradient a node returns is checked; the first NaN or Inf raises;
//   - each node records where it was created: its position in the forward ("op #12 of the
//     forward": ops recorded since the last backward, or since anomaly mode was turned on),
//     the ops recorded just before it, and the ops (or leaves) that made its inputs. The error quotes that record, and for a backward error, the path
//     from the loss down to the node.
// Checking reads every value of every output and gradient: training runs several times
// slower. Turn it on to hunt a NaN, not for production runs.
#pragma once

#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace attic::autograd {

class Node;

struct AnomalyMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);  // per thread; turning it on restarts the op count
};

// RAII: anomaly mode on (or off, with enabled = false) until the end of the scope.
class DetectAnomalyGuard {
 public:
  explicit DetectAnomalyGuard(bool enabled = true) : prev_(AnomalyMode::is_enabled()) {
    AnomalyMode::set_enabled(enabled);
  }
  ~DetectAnomalyGuard() { AnomalyMode::set_enabled(prev_); }
  DetectAnomalyGuard(const DetectAnomalyGuard&) = delete;
  DetectAnomalyGuard& operator=(const DetectAnomalyGuard&) = delete;

 private:
  bool prev_;
};

// Called by connect() when anomaly mode is on: records node's creation site and checks out.
void anomaly_record_forward(Node& node, const Tensor& out, const std::vector<Tensor>& inputs);
// Called by the engine when anomaly mode is on: checks what node returned. `path` names
// the chain of nodes from the root to node, root first.
void anomaly_check_backward(const Node& node, const Tensor& grad_output,
                            const std::vector<Tensor>& grads,
                            const std::vector<std::string>& path);
// Called by the engine after a backward: the next op is op #1 of the next forward.
void anomaly_backward_done();
// "MatmulBackward" -> "Matmul".
std::string op_name(const Node& node);

}  // namespace attic::autograd
