// Checkpoint levels C0, C1, C2 (autograd::checkpoint per layer, and per head inside it) with
// every dropout on: the same seed gives bit-identical outputs and gradients and leaves the
// generator where an unchecked run leaves it. Masks pass through at every level.
#include "helpers.h"
#include "models/linformer.h"

using namespace attic;
using namespace attic::models::linformer;
using attic::testing::values;

namespace {

struct Run {
  std::vector<double> out, x_grad, after;
  std::map<std::string, std::vector<double>> grads;
};

Run run(Checkpoint level, Sharing sharing, Causal causal, bool masked) {
  manual_seed(21);
  LinformerOptions o;
  o.input_size = 12;
  o.channels = 8;
  o.dim_k = 4;
  o.dim_ff = 16;
  o.nhead = 2;
  o.depth = 3;
  o.dropout = 0.2;
  o.dropout_ff = 0.3;
  o.parameter_sharing = sharing;
  o.causal = causal;
  o.checkpoint_level = level;
  Linformer m(o);
  Tensor x = randn({2, 12, 8}).requires_grad_(true);
  LayerArgs args;
  if (masked) args.input_mask = lt(arange(12.0), 10.0).view({1, 12}).expand({2, 12}).contiguous();
  manual_seed(99);  // the dropout draws
  Tensor y = m.forward(x, args);
  sum(y * y).backward();
  Run r{values(y), values(x.grad()), values(randn({4})), {}};
  for (const auto& [name, p] : m.named_parameters()) r.grads[name] = values(p.grad());
  return r;
}

}  // namespace

TEST_CASE("C0, C1 and C2 give bit-identical gradients with dropout, and the same generator state",
          "[linformer][checkpoint]") {
  const Sharing sharing = GENERATE(Sharing::None, Sharing::Layerwise);
  const Causal causal = GENERATE(Causal::None, Causal::Prefix);
  const bool masked = GENERATE(false, true);
  INFO(to_string(sharing) << " " << to_string(causal) << (masked ? " masked" : ""));
  Run c0 = run(Checkpoint::C0, sharing, causal, masked);
  for (Checkpoint level : {Checkpoint::C1, Checkpoint::C2}) {
    INFO(to_string(level));
    Run c = run(level, sharing, causal, masked);
    CHECK(c.out == c0.out);
    CHECK(c.x_grad == c0.x_grad);
    CHECK(c.after == c0.after);  // the next draw after backward
    REQUIRE(c.grads.size() == c0.grads.size());
    for (const auto& [name, g] : c0.grads) {
      INFO(name);
      CHECK(c.grads.at(name) == g);
    }
  }
}
