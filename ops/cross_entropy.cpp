// cross_entropy: the mean negative log-likelihood of the target classes under softmax.
#include "ops/helpers.h"

namespace attic {

namespace {

// loss = −Σ_n w_n log_softmax(x)[n, t_n], w_n = 1/count (0 for ignored rows), so
//   dx[n, c] = g w_n (softmax(x)[n, c] − [c == t_n]).
// Written as scatter_add(p ⊙ gw, 1, t, −gw): the copy of p ⊙ gw, then −gw added at each
// row's target column, with no one-hot matrix built. softmax is recomputed from the logits
// rather than saved: no [N, C] buffer waits between forward and backward, and the backward
// stays differentiable in x (second derivatives).
struct CrossEntropyBackward final : autograd::Node {
  Tensor logits;  // [N, C]
  Tensor target;  // [N, 1] int64, ignored rows pointed at class 0 (their weight is 0)
  Tensor weight;  // [N, 1], w_n
  const char* name() const override { return "CrossEntropyBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {  // g: []
    const Tensor gw = g * weight;
    return {scatter_add(softmax(logits, 1) * gw, 1, target, -gw)};
  }
};

// Checks that every target is in [0, C) or equals ignore_index; returns how many are not
// ignored. Values are read on the host.
int64_t check_targets(const Tensor& targets, int64_t C, int64_t ignore_index) {
  int64_t count = 0;
  for (int64_t t : targets.to(Device::CPU).to_vector<int64_t>()) {
    if (t == ignore_index) continue;
    ATTIC_CHECK(t >= 0 && t < C, "cross_entropy: target ", t, " is out of range for ", C,
                " classes (expected 0 to ", C - 1, ", or ignore_index ", ignore_index, ")");
    ++count;
  }
  return count;
}

}  // namespace

// logits [N, C], targets [N] int64 -> 0-d loss = −(1/count) Σ_{n: t_n != ignore_index}
// log_softmax(logits)[n, t_n], count = the number of targets not ignored. With every target
// ignored that is 0/0 = nan, as in PyTorch.
Tensor cross_entropy(const Tensor& logits, const Tensor& targets, int64_t ignore_index) {
  detail::check_defined("cross_entropy", logits);
  detail::check_floating("cross_entropy", logits);
  detail::check_index_dtype("cross_entropy", targets);
  ATTIC_CHECK(logits.dim() == 2, "cross_entropy: logits must be [N, C], got ",
              str(logits.shape()));
  const int64_t N = logits.size(0), C = logits.size(1);
  ATTIC_CHECK(targets.dim() == 1 && targets.size(0) == N, "cross_entropy: targets of shape ",
              str(targets.shape()), " do not match logits ", str(logits.shape()),
              " (expected [", N, "])");
  ATTIC_CHECK(C > 0, "cross_entropy: logits ", str(logits.shape()), " have no classes");
  detail::backend_of("cross_entropy", {logits, targets});
  const int64_t count = check_targets(targets, C, ignore_index);

  Tensor loss;
  Tensor target, weight;
  {
    NoGradGuard no_grad;  // the forward's pieces record nothing; one node stands for them all
    const Tensor kept = ne(targets, double(ignore_index));  // [N] bool: true where not ignored
    target = (targets * kept).unsqueeze(1);                 // ignored -> class 0
    weight = (kept.to(logits.dtype()) / double(count)).unsqueeze(1);
    const Tensor picked = gather(log_softmax(logits, 1), 1, target);  // [N, 1]
    // where() rather than a product with kept: an ignored row's −inf must not give 0·inf.
    loss = -sum(where(kept.unsqueeze(1), picked, zeros_like(picked))) / double(count);
  }
  if (autograd::needs_grad({logits})) {
    auto node = std::make_shared<CrossEntropyBackward>();
    node->logits = logits;
    node->target = target;
    node->weight = weight;
    autograd::connect(loss, node, {logits});
  }
  return loss;
}

}  // namespace attic
