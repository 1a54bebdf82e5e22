#include "nn/dropout.h"

namespace attic::nn {

Dropout::Dropout(double p_, Generator* g) : p(p_), gen(g) {
  ATTIC_CHECK(p >= 0 && p <= 1, "Dropout: p must be in [0, 1], got ", p);
}

}  // namespace attic::nn
