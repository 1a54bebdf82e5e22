// Chapter 12's exercise: write generate from forward and tensor ops.
// Build and check it with `make exercise N=12`; the solution is in solution/generate.cpp.
#include "generate.h"

#include <stdexcept>

using namespace attic;

// idx [1, T0] int64 -> [1, T0 + n]
Tensor my_generate(models::GPT& model, Tensor idx, int64_t n, double temperature,
                   int64_t top_k, Generator& gen) {
  // TODO 1: no graph and eval mode while generating (NoGradGuard, model.eval()).
  // TODO 2: for each new token: crop idx to its last block_size tokens (narrow, contiguous),
  //         take forward(ctx).logits (no targets: the last position only) as [V].
  // TODO 3: temperature 0: argmax. Otherwise divide by temperature, set everything below the
  //         top_k-th largest to -inf (masked_fill, lt), softmax, and walk the probabilities
  //         with one u = gen.uniform(), as draw() does in examples/12_sampling.cpp.
  // TODO 4: append the token with cat({idx, full({1, 1}, next, kInt64)}, 1); then model.train().
  (void)model;
  (void)n;
  (void)temperature;
  (void)top_k;
  (void)gen;
  throw std::logic_error("TODO: my_generate is not written yet");
  return idx;
}
