// Chapter 12's exercise: write generate from forward and tensor ops.
// Build and check it with `make exercise N=12`; the solution is in solution/generate.cpp.
#include "generate.h"

#include <stdexcept>

using namespace attic;

// idx [1, T0] int64 -> [1, T0 + n]
Tensor my_generate(models::GPT& model, Tensor idx, int64_t n, double temperature,
                   int64_t top_k, Generator& gen) {
  // TODO: idx with n tokens appended, each the one generate.h defines: from the logits of
  //       the last position over at most block_size tokens of context, temperature and top_k,
  //       one gen.uniform() per token (none at temperature 0). No graph recorded, eval mode
  //       while generating, train mode afterwards.
  (void)model;
  (void)n;
  (void)temperature;
  (void)top_k;
  (void)gen;
  throw std::logic_error("TODO: my_generate is not written yet");
  return idx;
}
