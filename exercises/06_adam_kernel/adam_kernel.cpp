// Chapter 6's exercise: write the Adam / AdamW update (adam_kernel.h) as one loop over i.
#include "adam_kernel.h"

#include <cmath>
#include <stdexcept>

void my_adam_step(float* p, const float* g, float* m, float* v, int64_t n,
                  const attic::AdamStep& s) {
  // TODO: for each i in [0, n): apply the weight decay (decoupled or L2, see s.decoupled),
  // update m[i] and v[i], then p[i], as adam_kernel.h writes them.
  (void)p, (void)g, (void)m, (void)v, (void)n, (void)s;
  throw std::logic_error("TODO: my_adam_step is not written yet (exercises/06_adam_kernel)");
}
