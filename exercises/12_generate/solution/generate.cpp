// Chapter 12's exercise, solved: generate from forward and tensor ops.
//
// The chapter's question: Why run under `NoGradGuard` and in eval mode? And what does `forward` say
// when the crop is left out?
// Answer: Token for token agreement means that the recipe of 12.3 is all that `generate` does,
// random draws included. `NoGradGuard` matters for memory: without it every step would record a
// graph that nothing ever differentiates. Eval mode turns dropout off, which would otherwise add
// noise to every prediction (this model has dropout 0, but `config/shakespeare_char.cfg` uses 0.2).
// Without the crop, the 17th token is one position more than `wpe` has rows, and `forward` refuses
// it, naming both lengths: "GPT: cannot forward a sequence of length 17, block size is only 16".
#include "generate.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <vector>

using namespace attic;

// idx [1, T0] int64 -> [1, T0 + n]
Tensor my_generate(models::GPT& model, Tensor idx, int64_t n, double temperature,
                   int64_t top_k, Generator& gen) {
  NoGradGuard no_grad;  // no graph: nothing here is differentiated
  model.eval();         // dropout off
  const int64_t V = model.config.vocab_size;
  for (int64_t step = 0; step < n; ++step) {
    // wpe has block_size rows: the context is at most the last block_size tokens.
    const int64_t T = idx.size(1), Tc = std::min(T, model.config.block_size);
    Tensor l = model.forward(idx.narrow(1, T - Tc, Tc).contiguous()).logits.view({V});
    int64_t next = 0;
    if (temperature == 0) {
      next = argmax(l, 0).item<int64_t>();
    } else {
      l = l / temperature;
      if (top_k > 0 && top_k < V) {
        std::vector<float> sorted = l.to_vector<float>();
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        l = masked_fill(l, lt(l, double(sorted[size_t(top_k - 1)])),
                        -std::numeric_limits<double>::infinity());
      }
      const std::vector<float> p = softmax(l, 0).to_vector<float>();
      double u = gen.uniform();
      next = V - 1;  // when rounding leaves some of u over
      for (int64_t i = 0; i < V; ++i)
        if ((u -= p[size_t(i)]) < 0) {
          next = i;
          break;
        }
    }
    idx = cat({idx, full({1, 1}, double(next), kInt64)}, 1);
  }
  model.train();
  return idx;
}
