#include "nn/attention/attention.h"

#include "nn/attention/linear_attention.h"
#include "nn/attention/multi_head_attention.h"

namespace attic::nn {

AttentionKind parse_attention_kind(const std::string& name) {
  if (name == "softmax") return AttentionKind::Softmax;
  if (name == "linear_elu") return AttentionKind::LinearElu;
  if (name == "linear_exp") return AttentionKind::LinearExp;
  fail("attention must be softmax, linear_elu or linear_exp, got '", name, "'");
}

std::string attention_kind_name(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::Softmax: return "softmax";
    case AttentionKind::LinearElu: return "linear_elu";
    case AttentionKind::LinearExp: return "linear_exp";
  }
  return "?";
}

void AttentionOptions::validate(const char* who) const {
  ATTIC_CHECK(dim_q > 0 && dim_k > 0 && dim_v > 0, who, ": dim_q, dim_k and dim_v must be positive, got ",
              dim_q, ", ", dim_k, " and ", dim_v);
  ATTIC_CHECK(num_heads > 0, who, ": num_heads must be positive, got ", num_heads);
  ATTIC_CHECK(a() % num_heads == 0 && o() % num_heads == 0, who, ": dim_a = ", a(), " and dim_o = ",
              o(), " must be multiples of num_heads = ", num_heads);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, who, ": dropout must be in [0, 1), got ", dropout);
}

std::shared_ptr<Attention> make_attention(AttentionKind kind, const AttentionOptions& options) {
  if (kind == AttentionKind::Softmax) return std::make_shared<MultiHeadAttention>(options);
  return std::make_shared<LinearAttention>(
      options, kind == AttentionKind::LinearElu ? FeatureMap::EluPlusOne : FeatureMap::Exp);
}

}  // namespace attic::nn
