#include "nn/attention/attention.h"

#include <iterator>

#include "nn/attention/linear_attention.h"
#include "nn/attention/multi_head_attention.h"
#include "nn/init.h"

namespace attic::nn {

namespace {

struct NamedKind {
  const char* name;
  AttentionKind kind;
};
constexpr NamedKind kKinds[] = {
    {"softmax", AttentionKind::Softmax},
    {"linear_elu", AttentionKind::LinearElu},
    {"linear_exp", AttentionKind::LinearExp},
};

}  // namespace

AttentionKind parse_attention_kind(const std::string& name) {
  for (const NamedKind& k : kKinds)
    if (name == k.name) return k.kind;
  fail("attention must be ", attention_kind_names(), ", got '", name, "'");
}

std::string attention_kind_name(AttentionKind kind) {
  for (const NamedKind& k : kKinds)
    if (kind == k.kind) return k.name;
  return "?";
}

// "softmax, linear_elu or linear_exp"
std::string attention_kind_names() {
  std::string out;
  const size_t n = std::size(kKinds);
  for (size_t i = 0; i < n; ++i)
    out += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kKinds[i].name;
  return out;
}

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

std::shared_ptr<Attention> make_attention(AttentionKind kind, const AttentionOptions& options) {
  if (kind == AttentionKind::Softmax) return std::make_shared<MultiHeadAttention>(options);
  return std::make_shared<LinearAttention>(
      options, kind == AttentionKind::LinearElu ? FeatureMap::EluPlusOne : FeatureMap::Exp);
}

}  // namespace attic::nn
