#include "nn/attention/causal_mixer.h"

#include "tensor/error.h"

namespace attic::nn {

void MixerOptions::validate(const std::string& who) const {
  ATTIC_CHECK(n_embd > 0 && n_head > 0 && n_embd % n_head == 0, who, ": n_embd ", n_embd,
              " must be a positive multiple of n_head ", n_head);
  ATTIC_CHECK(layer >= 0 && layer < n_layer, who, ": layer ", layer, " is not in 0..", n_layer - 1);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, who, ": dropout must be in [0, 1), got ", dropout);
}

Tensor CausalMixer::step(MixerState&, const Tensor&, const MixerContext&) {
  fail("attention ", name(), " has no step state: generate by recomputing the context");
}

}  // namespace attic::nn
