#include "models/sampling.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace attic::models {

// logits [B, V] -> [B, 1]
Tensor sample_next(const Tensor& logits, double temperature, int64_t top_k, Generator& gen) {
  ATTIC_CHECK(logits.dim() == 2, "sample_next: logits of shape ", str(logits.shape()), " must be [B, V]");
  const int64_t B = logits.size(0), V = logits.size(1);
  const std::vector<double> all = logits.to_vector<double>();
  std::vector<int64_t> next(size_t(B), 0);
  for (int64_t b = 0; b < B; ++b) {
    std::vector<double> l(all.begin() + b * V, all.begin() + (b + 1) * V);
    if (temperature == 0) {
      next[size_t(b)] = std::max_element(l.begin(), l.end()) - l.begin();
      continue;
    }
    // l / temperature, as nanoGPT divides; a temperature so small that a logit over it
    // overflows (1e-320) takes the largest logit out first, which leaves the same
    // distribution: the largest at exp(0) = 1, and the rest at or near 0 (the limit, argmax).
    bool overflowed = false;
    for (double& x : l) {
      const double y = x / temperature;
      overflowed |= std::isfinite(x) && !std::isfinite(y);
      x = y;
    }
    if (overflowed) {
      l.assign(all.begin() + b * V, all.begin() + (b + 1) * V);
      const double top = *std::max_element(l.begin(), l.end());
      for (double& x : l) x = (x - top) / temperature;
    }
    if (top_k > 0 && top_k < V) {  // everything below the k-th largest logit is dropped
      std::vector<double> sorted = l;
      std::nth_element(sorted.begin(), sorted.begin() + (top_k - 1), sorted.end(), std::greater<>());
      const double kth = sorted[size_t(top_k - 1)];
      for (double& x : l) if (x < kth) x = -std::numeric_limits<double>::infinity();
    }
    // softmax with the max subtracted (exp never overflows), then one categorical draw
    const double m = *std::max_element(l.begin(), l.end());
    double total = 0;
    for (double& x : l) total += (x = std::exp(x - m));
    double u = gen.uniform() * total;
    int64_t pick = V - 1;
    for (int64_t i = 0; i < V; ++i)
      if ((u -= l[size_t(i)]) < 0) { pick = i; break; }
    next[size_t(b)] = pick;
  }
  return from_vector(next, {B, 1});
}

Tensor generate_tokens(nn::Module& model, const Tensor& idx, int64_t n, int64_t context,
                       double temperature, int64_t top_k, Generator& gen,
                       const std::function<Tensor(const Tensor&)>& next_logits) {
  ATTIC_CHECK(temperature >= 0, "generate: temperature must be >= 0, got ", temperature);
  ATTIC_CHECK(top_k >= 0, "generate: top_k must be >= 0, got ", top_k);
  NoGradGuard no_grad;
  const bool was_training = model.is_training();
  model.eval();
  Tensor seq = idx.contiguous();
  try {
    for (int64_t step = 0; step < n; ++step) {
      const int64_t T = seq.size(1), Tc = std::min(T, context);
      const Tensor logits = next_logits(seq.narrow(1, T - Tc, Tc).contiguous());  // [B, V]
      seq = cat({seq, sample_next(logits, temperature, top_k, gen)}, 1);
    }
  } catch (...) {
    model.train(was_training);
    throw;
  }
  model.train(was_training);
  return seq;
}

std::optional<DecodeState> start_decoding(const std::vector<const nn::CausalMixer*>& mixers) {
  DecodeState state;
  for (const nn::CausalMixer* m : mixers) {
    std::unique_ptr<nn::MixerState> s = m->start_decoding();
    if (!s) return std::nullopt;
    state.layers.push_back(std::move(s));
  }
  return state;
}

}  // namespace attic::models
