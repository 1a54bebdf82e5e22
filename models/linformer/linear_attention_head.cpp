#include "models/linformer/linear_attention_head.h"

#include <cmath>
#include <limits>

#include "models/linformer/prefix_attention.h"

namespace attic::models::linformer {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

void register_projection(nn::Module& head, const std::string& name, const std::shared_ptr<Projection>& p) {
  if (p->method == Method::NoParams) head.register_buffer(name, p->weight);
  else head.register_module(name, p);
}

}  // namespace

LinearAttentionHead::LinearAttentionHead(int64_t d_, double dropout_, std::shared_ptr<Projection> E_,
                                         std::shared_ptr<Projection> F_, Causal causal_, bool full)
    : d(d_), causal(causal_), full_attention(full), dropout(dropout_), E(std::move(E_)), F(std::move(F_)) {
  ATTIC_CHECK(E && F && E->d == d && F->d == d && E->n == F->n && E->k == F->k,
              "LinearAttentionHead: E and F must map the same n to the same k for heads of width ", d);
  register_projection(*this, "E", E);
  register_projection(*this, "F", F);
}

Tensor LinearAttentionHead::forward(const Tensor& Q, const Tensor& K, const Tensor& V, const LayerArgs& args) {
  ATTIC_CHECK(Q.dim() == 3 && Q.size(2) == d && K.shape() == Q.shape() && V.shape() == Q.shape(),
              "LinearAttentionHead: Q, K and V must be [B, m, ", d, "] alike, got ", str(Q.shape()), ", ",
              str(K.shape()), " and ", str(V.shape()));
  const int64_t B = Q.size(0), m = Q.size(1);
  ATTIC_CHECK(m <= E->n, "LinearAttentionHead: ", m, " positions, more than input_size ", E->n);
  const TensorOptions opt = TensorOptions(Q.dtype()).device(Q.device());
  Tensor q = Q, k = K, v = V;
  // The package zeroes masked rows instead of masking scores: an (n, n) mask has no place
  // among k slots.
  auto keep_rows = [&](const Tensor& mask, const char* what) {
    ATTIC_CHECK(mask.dtype() == DType::Bool && mask.dim() == 2 && mask.size(0) == B && mask.size(1) == m,
                "LinearAttentionHead: ", what, " must be bool [", B, ", ", m, "], got ",
                mask.defined() ? str(mask.shape()) : std::string("?"));
    return logical_not(mask).unsqueeze(-1);  // [B, m, 1], true where the row goes
  };
  if (args.input_mask.defined()) {
    Tensor drop = keep_rows(args.input_mask, "input_mask");
    k = masked_fill(k, drop, 0.0);
    v = masked_fill(v, drop, 0.0);
  }
  if (args.embeddings_mask.defined()) q = masked_fill(q, keep_rows(args.embeddings_mask, "embeddings_mask"), 0.0);
  const double scale = 1.0 / std::sqrt(double(d));

  if (causal == Causal::Prefix && !full_attention) {
    PrefixInputs in{q, E->keyed(k), F->keyed(v), E->matrix(m), F->matrix(m), E->bias_rows(), F->bias_rows(),
                    scale, dropout, is_training(), nullptr};
    Tensor p;
    Tensor y = prefix_attention(in, 64, args.visualize ? &p : nullptr);
    if (args.visualize) P_bar = p.detach();
    return y;
  }

  Tensor Kbar = full_attention ? k : E->compress(k);  // [B, k, d] (or K itself)
  Tensor scores = matmul(q, Kbar.transpose(-1, -2)) * scale;  // [B, m, k]
  if (causal != Causal::None) scores = masked_fill(scores, after_position(m, scores.size(2), 0, opt), kNegInf);
  Tensor p = softmax(scores, -1);
  if (args.visualize) P_bar = p.detach();
  p = attic::dropout(p, dropout, is_training());
  Tensor Vbar = full_attention ? v : F->compress(v);
  return matmul(p, Vbar);
}

}  // namespace attic::models::linformer
