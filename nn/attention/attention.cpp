#include "nn/attention/attention.h"

#include "nn/init.h"

namespace attic::nn {

void AttentionOptions::validate(const char* who) const {
  ATTIC_CHECK(dim_q > 0 && dim_k > 0 && dim_v > 0, who, ": dim_q, dim_k and dim_v must be positive, got ",
              dim_q, ", ", dim_k, " and ", dim_v);
  ATTIC_CHECK(num_heads > 0, who, ": num_heads must be positive, got ", num_heads);
  ATTIC_CHECK(a() % num_heads == 0 && o() % num_heads == 0, who, ": dim_a = ", a(), " and dim_o = ",
              o(), " must be multiples of num_heads = ", num_heads);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, who, ": dropout must be in [0, 1), got ", dropout);
}

namespace {

// in -> out, xavier_normal weight, zero bias
std::shared_ptr<Linear> xavier_linear(int64_t in, int64_t out) {
  auto fc = std::make_shared<Linear>(in, out);
  init::xavier_normal_(fc->weight);
  init::zeros_(fc->bias);
  return fc;
}

}  // namespace

Projections register_projections(Module& m, const AttentionOptions& o) {
  return {m.register_module("fc_q", xavier_linear(o.dim_q, o.a())),
          m.register_module("fc_k", xavier_linear(o.dim_k, o.a())),
          m.register_module("fc_v", xavier_linear(o.dim_v, o.o())),
          m.register_module("fc_o", xavier_linear(o.o(), o.o()))};
}

}  // namespace attic::nn
