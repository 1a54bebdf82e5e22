// Chapter 6's exercise: write the Adam / AdamW update (adam_kernel.h), then run
//   make exercise N=06
// The check steps your kernel beside attic's optimizers, then swaps it in for the CPU
// backend's own (tensor/swap_in.h) and trains the laptop GPT on it.
#include "adam_kernel.h"

#include <cmath>
#include <stdexcept>

void my_adam_step(float* p, const float* g, float* m, float* v, int64_t n,
                  const attic::AdamStep& s) {
  // TODO: one Adam or AdamW step of p, m and v (adam_kernel.h).
  (void)p, (void)g, (void)m, (void)v, (void)n, (void)s;
  throw std::logic_error("TODO: my_adam_step is not written yet (exercises/06_adam_kernel)");
}
