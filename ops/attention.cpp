// scaled_dot_product_attention: attic's one functional attention, PyTorch's
// F.scaled_dot_product_attention (Vaswani et al. 2017, eq. 1):
//
//   S = q kᵀ · scale, with dropped logits set to masked_logit     [*, Tq, Tk]
//   P = softmax(S) over the keys,  out = dropout(P) v               [*, Tq, hv]
//
// Two paths compute it. The fast one is the fused kernel (tensor/cpu/attention.cpp,
// tensor/cuda/attention.cu), the op nanoGPT calls when PyTorch has it ("flash"); it runs
// whenever it can: no attn_mask, causal or not, and with dropout where the backend draws the
// mask inside the kernel (the CPU's). The general one is the same math in public ops
// (scaled_dot_product_attention_naive), for masks, dropout elsewhere, and as the reference
// tests/ops/test_attention.cpp checks the kernel against. Both draw dropout's mask from one
// key of the generator (ops/dropout.cpp), so they drop the same weights.
//
// The derivative, written once here (attention_grads) and cited by both kernels. With
// dO = ∂L/∂out [*, Tq, hv] and no dropout:
//
//   dV [*, Tk, hv] = Pᵀ dO
//   dP [*, Tq, Tk] = dO Vᵀ
//   dS [*, Tq, Tk] = P ⊙ (dP − rowsum(dP ⊙ P))     the softmax's Jacobian, row by row
//   dQ [*, Tq, hs] = scale · dS K
//   dK [*, Tk, hs] = scale · dSᵀ Q
//
// A dropped key has P = 0, so its dS is 0: the mask needs no term of its own. With dropout,
// out = D v for D = dropout(P) = P ⊙ m / (1 − p): dV = Dᵀ dO, and dP = dropout(dO Vᵀ) with
// the same mask, dropout's own backward. Without
// create_graph the backward Nodes run the kernel's backward; with it (grad mode on during
// backward) they evaluate these lines in public ops, so that the gradient has a graph and
// second derivatives are exact.
#include <array>
#include <cmath>

#include "ops/helpers.h"

namespace attic {

namespace {

// A new [*, T, d] tensor like t; for 4-d [B, NH, T, d] it is the transposed view of a
// [B, T, NH, d] buffer, the layout that heads side by side ([B, T, NH · d]) has, so that
// neither the output's consumer nor the gradients' way back through view and transpose
// has to copy.
Tensor heads_buffer(const Shape& shape, const Tensor& like) {
  const TensorOptions o = TensorOptions(like.dtype()).device(like.device());
  if (shape.size() != 4) return empty(shape, o);
  return empty({shape[0], shape[2], shape[1], shape[3]}, o).transpose(1, 2);
}

// What the fused kernel saves for backward, lead = [*]: the weights [*, Tq, Tk], or only each
// row's log-sum-exp [*, Tq] where the backend would rather form the weights again in the
// backward (attention_recomputes) and the caller does not want them (no `weights`).
Tensor saved_buffer(Shape shape, int64_t Tq, int64_t Tk, Backend& be, const SdpaOptions& o,
                    const TensorOptions& to) {
  shape.push_back(Tq);
  double bytes = double(Tk) * double(dtype_size(to.dtype_));
  for (const int64_t d : shape) bytes *= double(d);
  if (o.weights || !be.attention_recomputes(bytes)) shape.push_back(Tk);
  return empty(shape, to);
}

// The softmax weights a fused kernel saved in att [*, Tq, Tk], as the caller of
// scaled_dot_product_attention receives them: causal, the kernel may have left the entries
// above the diagonal unwritten (Backend::attention), and tril writes their zeros.
Tensor causal_weights(const Tensor& att, bool causal) { return causal ? tril(att) : att; }

// The fused kernel computes exactly the naive path when there is no mask tensor and no
// dropout. masked_logit then only touches causally hidden keys, and every causal row keeps
// key 0, so a finite masked_logit (-65504) gives those keys exp(masked_logit − max) = 0 as
// -inf does, unless a row's largest logit is itself below masked_logit + 745.
bool fused_applies(const SdpaOptions& o, const Tensor& q) {
  return o.fused && !o.attn_mask.defined() &&
         (o.dropout_p == 0.0 || backend_for(q.device()).fused_dropout());
}

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv]: throws naming op unless they fit.
void check_qkv(const char* op, const Tensor& q, const Tensor& k, const Tensor& v,
               const SdpaOptions& o) {
  for (const Tensor* t : {&q, &k, &v}) {
    detail::check_defined(op, *t);
    detail::check_floating(op, *t);
    ATTIC_CHECK(t->dim() >= 2, op, ": q, k and v need at least 2 dims, got ",
                str(t->shape()));
  }
  detail::check_same_dtype(op, q, k);
  detail::check_same_dtype(op, q, v);
  const Shape lead(q.shape().begin(), q.shape().end() - 2);
  ATTIC_CHECK(Shape(k.shape().begin(), k.shape().end() - 2) == lead &&
                  Shape(v.shape().begin(), v.shape().end() - 2) == lead &&
                  k.size(-1) == q.size(-1) && v.size(-2) == k.size(-2),
              op, ": expected q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] with the same [*], got q ",
              str(q.shape()), ", k ", str(k.shape()), ", v ", str(v.shape()));
  ATTIC_CHECK(o.dropout_p >= 0 && o.dropout_p <= 1, op, ": dropout_p must be in [0, 1], got ",
              o.dropout_p);
  if (o.attn_mask.defined()) {
    Shape scores = lead;
    scores.insert(scores.end(), {q.size(-2), k.size(-2)});
    const Tensor& m = o.attn_mask;
    bool fits = m.dim() <= int64_t(scores.size());
    for (int64_t i = 1; fits && i <= m.dim(); ++i)
      fits = m.size(-i) == 1 || m.size(-i) == scores[scores.size() - size_t(i)];
    ATTIC_CHECK(fits, op, ": attn_mask of shape ", str(m.shape()),
                " does not broadcast to the scores' shape ", str(scores));
    ATTIC_CHECK(m.dtype() == kBool, op, ": attn_mask must be bool (true = attend), got ",
                dtype_name(m.dtype()));
  }
}

double default_scale(const Tensor& q, const SdpaOptions& o) {
  return o.scale ? *o.scale : 1.0 / std::sqrt(double(q.size(-1)));
}

// The key of the fused kernel's dropout mask: one draw from the generator, as dropout()
// makes on the composed path, so that both drop the same weights (0: no dropout).
uint64_t draw_dropout_key(const SdpaOptions& o) {
  if (o.dropout_p == 0) return 0;
  return (o.generator ? *o.generator : default_generator()).next_u64();
}

// The dtype the fused kernel's products take their operands in (Backend::attention): under
// autocast, for float32 q, the autocast dtype where the backend's kernel has it, as the
// composed path's matmuls take it; otherwise, and where the kernel lacks it (CUDA's, which
// computes in float32 only), kFloat32. attention is on PyTorch's autocast list of ops that
// run in the lower precision: its products are most of its work, and its softmax, which
// needs float32's precision, stays in float32 here as in PyTorch's kernels.
DType fused_compute(const Backend& be, const Tensor& q) {
  if (!Autocast::is_enabled() || q.dtype() != kFloat32) return kFloat32;
  return be.attention_computes(Autocast::dtype()) ? Autocast::dtype() : kFloat32;
}

// q [*, Tq, hs], k [*, Tk, hs] -> P [*, Tq, Tk] = softmax(mask(q kᵀ · scale)), in public ops.
Tensor attention_weights(const Tensor& q, const Tensor& k, double scale, const Tensor& attn_mask,
                         bool is_causal, double masked_logit) {
  // The scale keeps the logits' variance near 1 so that the softmax does not saturate as
  // hs grows (Vaswani et al. 2017, §3.2.1).
  Tensor s = matmul(q, k.transpose(-2, -1)) * scale;
  if (attn_mask.defined()) {
    s = masked_fill(s, logical_not(attn_mask), masked_logit);  // a key is dropped where false
  }
  if (is_causal) {
    // 1 above the diagonal: query i drops every key j > i.
    const int64_t Tq = q.size(-2), Tk = k.size(-2);
    const Tensor future = triu(ones({Tq, Tk}, TensorOptions(kBool).device(q.device())), 1);
    s = masked_fill(s, future, masked_logit);
  }
  return softmax(s, -1);
}

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv], P [*, Tq, Tk], dO [*, Tq, hv] -> dQ, dK, dV:
// the derivative in the file's head comment, line by line, in public ops; dropout_p > 0:
// the weights were dropped with dropout_key.
std::array<Tensor, 3> attention_grads(const Tensor& q, const Tensor& k, const Tensor& v,
                                      const Tensor& P, const Tensor& dO, double scale,
                                      double dropout_p, uint64_t dropout_key) {
  const bool drop = dropout_p > 0;
  const Tensor D = drop ? dropout_with_key(P, dropout_p, dropout_key) : P;
  const Tensor dV = matmul(D.transpose(-2, -1), dO);
  const Tensor dD = matmul(dO, v.transpose(-2, -1));
  const Tensor dP = drop ? dropout_with_key(dD, dropout_p, dropout_key) : dD;
  const Tensor dS = P * (dP - sum(dP * P, {-1}, /*keepdim=*/true));
  const Tensor dQ = matmul(dS, k) * scale;
  const Tensor dK = matmul(dS.transpose(-2, -1), q) * scale;
  return {dQ, dK, dV};
}

// The fused op's node. Saves q, k, v as given (not detached): a recorded backward
// differentiates through them. Its products run in the dtype the forward's ran in, as
// MatmulBackward's do (ops/matmul.cpp).
struct AttentionBackward final : autograd::Node {
  Tensor q, k, v, att;  // inputs, and what the kernel saved: P, or its rows' log-sum-exp
  double scale = 1;
  bool causal = false;
  double dropout_p = 0;  // > 0: the weights were dropped with dropout_key
  uint64_t dropout_key = 0;
  DType compute = kFloat32;  // or the autocast dtype the forward's products ran in
  const char* name() const override { return "AttentionBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    if (autograd::GradMode::is_enabled()) {
      const AutocastGuard cast(compute);
      // create_graph: P recomputed from q and k in public ops, so that it has a graph too.
      const Tensor P = attention_weights(q, k, scale, Tensor(), causal, -INFINITY);
      const auto [dq, dk, dv] = attention_grads(q, k, v, P, g, scale, dropout_p, dropout_key);
      return {dq, dk, dv};
    }
    Tensor dq = heads_buffer(q.shape(), q), dk = heads_buffer(k.shape(), q),
           dv = heads_buffer(v.shape(), q);
    backend_for(q.device()).attention_backward(
        detail::ktensor(dq), detail::ktensor(dk), detail::ktensor(dv), detail::ktensor(g),
        detail::ktensor(q), detail::ktensor(k), detail::ktensor(v), detail::ktensor(att), scale,
        causal, dropout_p, dropout_key, compute);
    return {dq, dk, dv};
  }
};

// The packed form's node: one input, qkv, and one gradient, written by the kernel straight
// into the three column blocks of d_qkv (no split, no zero-filled slices to add up).
struct PackedAttentionBackward final : autograd::Node {
  Tensor qkv, att;
  int64_t n_head = 1;
  double scale = 1;
  bool causal = false;
  double dropout_p = 0;
  uint64_t dropout_key = 0;
  DType compute = kFloat32;
  const char* name() const override { return "PackedAttentionBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const auto [q, k, v] = split_qkv(qkv, n_head);
    const Tensor dy = split_heads(g, n_head);  // [B, T, C] -> [B, NH, T, hs]
    if (autograd::GradMode::is_enabled()) {
      const AutocastGuard cast(compute);
      // create_graph: as AttentionBackward, the heads put back side by side in [B, T, 3C].
      const Tensor P = attention_weights(q, k, scale, Tensor(), causal, -INFINITY);
      const auto [dq, dk, dv] = attention_grads(q, k, v, P, dy, scale, dropout_p, dropout_key);
      return {cat({merge_heads(dq), merge_heads(dk), merge_heads(dv)}, 2)};
    }
    Tensor d_qkv = empty(qkv.shape(), TensorOptions(qkv.dtype()).device(qkv.device()));
    const auto [dq, dk, dv] = split_qkv(d_qkv, n_head);
    backend_for(qkv.device()).attention_backward(
        detail::ktensor(dq), detail::ktensor(dk), detail::ktensor(dv), detail::ktensor(dy),
        detail::ktensor(q), detail::ktensor(k), detail::ktensor(v), detail::ktensor(att), scale,
        causal, dropout_p, dropout_key, compute);
    return {d_qkv};
  }
};

}  // namespace

// x [B, T, NH·hs] -> [B, NH, T, hs]
Tensor split_heads(const Tensor& x, int64_t n_head) {
  detail::check_defined("split_heads", x);
  ATTIC_CHECK(x.dim() == 3 && n_head > 0 && x.size(2) % n_head == 0,
              "split_heads: expected x [B, T, NH·hs] with NH = ", n_head, ", got ", str(x.shape()));
  const int64_t B = x.size(0), T = x.size(1), W = x.size(2);
  return x.reshape({B, T, n_head, W / n_head}).transpose(1, 2);
}

// x [B, NH, T, hs] -> [B, T, NH·hs]
Tensor merge_heads(const Tensor& x) {
  detail::check_defined("merge_heads", x);
  ATTIC_CHECK(x.dim() == 4, "merge_heads: expected x [B, NH, T, hs], got ", str(x.shape()));
  const int64_t B = x.size(0), NH = x.size(1), T = x.size(2), hs = x.size(3);
  return x.transpose(1, 2).contiguous().view({B, T, NH * hs});
}

// qkv [B, T, 3C] -> the split_heads views of columns [0, C), [C, 2C) and [2C, 3C).
std::array<Tensor, 3> split_qkv(const Tensor& qkv, int64_t n_head) {
  detail::check_defined("split_qkv", qkv);
  ATTIC_CHECK(qkv.dim() == 3 && qkv.size(2) % 3 == 0,
              "split_qkv: expected qkv [B, T, 3C], got ", str(qkv.shape()));
  const int64_t C = qkv.size(2) / 3;
  return {split_heads(qkv.narrow(2, 0, C), n_head), split_heads(qkv.narrow(2, C, C), n_head),
          split_heads(qkv.narrow(2, 2 * C, C), n_head)};
}

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] -> [*, Tq, hv], in public ops:
//   P = softmax(mask(q kᵀ · scale)), out = dropout(P) v
Tensor scaled_dot_product_attention_naive(const Tensor& q, const Tensor& k, const Tensor& v,
                                          const SdpaOptions& o) {
  check_qkv("scaled_dot_product_attention", q, k, v, o);
  const Tensor P = attention_weights(q, k, default_scale(q, o), o.attn_mask, o.is_causal,
                                     o.masked_logit);
  if (o.weights) *o.weights = P.detach();
  return matmul(dropout(P, o.dropout_p, o.dropout_p > 0, o.generator), v);
}

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] -> [*, Tq, hv].
// For 4-d inputs [B, NH, T, hs] the fused result is a transposed view of a [B, T, NH, hv]
// buffer (heads_buffer), so putting the heads side by side afterwards copies nothing.
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                    const SdpaOptions& o) {
  const char* op = "scaled_dot_product_attention";
  if (!fused_applies(o, q)) return scaled_dot_product_attention_naive(q, k, v, o);
  check_qkv(op, q, k, v, o);
  const Shape lead(q.shape().begin(), q.shape().end() - 2);
  const int64_t Tq = q.size(-2), Tk = k.size(-2), hv = v.size(-1);
  const double s = default_scale(q, o);
  Backend& be = detail::backend_of(op, {q, k, v});
  const TensorOptions to = TensorOptions(q.dtype()).device(q.device());
  Shape out_shape = lead;
  out_shape.insert(out_shape.end(), {Tq, hv});
  Tensor att = saved_buffer(lead, Tq, Tk, be, o, to);
  Tensor out = heads_buffer(out_shape, q);
  const uint64_t key = draw_dropout_key(o);
  const DType compute = fused_compute(be, q);
  be.attention(detail::ktensor(out), detail::ktensor(att), detail::ktensor(q), detail::ktensor(k),
               detail::ktensor(v), s, o.is_causal, o.dropout_p, key, compute);
  if (o.weights) *o.weights = causal_weights(att, o.is_causal);
  if (autograd::needs_grad({q, k, v})) {
    auto node = std::make_shared<AttentionBackward>();
    node->q = q;
    node->k = k;
    node->v = v;
    node->att = att;
    node->scale = s;
    node->causal = o.is_causal;
    node->dropout_p = o.dropout_p;
    node->dropout_key = key;
    node->compute = compute;
    autograd::connect(out, node, {q, k, v});
  }
  return out;
}

// qkv [B, T, 3C] -> y [B, T, C]: q, k, v the three column blocks of qkv (what GPT's c_attn
// makes), n_head heads of width hs = C / n_head, the heads of y side by side.
Tensor scaled_dot_product_attention_packed(const Tensor& qkv, int64_t n_head,
                                           const SdpaOptions& o) {
  const char* op = "scaled_dot_product_attention_packed";
  detail::check_defined(op, qkv);
  detail::check_floating(op, qkv);
  ATTIC_CHECK(qkv.dim() == 3 && qkv.size(2) % 3 == 0, op,
              ": expected qkv [B, T, 3C], got ", str(qkv.shape()));
  ATTIC_CHECK(n_head > 0 && (qkv.size(2) / 3) % n_head == 0, op, ": C = ", qkv.size(2) / 3,
              " is not divisible by n_head = ", n_head);
  const auto [q, k, v] = split_qkv(qkv, n_head);
  if (!fused_applies(o, q)) return merge_heads(scaled_dot_product_attention_naive(q, k, v, o));
  check_qkv(op, q, k, v, o);
  const int64_t B = qkv.size(0), T = qkv.size(1), C = qkv.size(2) / 3, hs = C / n_head;
  const double scale = default_scale(q, o);
  const TensorOptions to = TensorOptions(qkv.dtype()).device(qkv.device());
  Backend& be = detail::backend_of(op, {qkv});
  Tensor att = saved_buffer({B, n_head}, T, T, be, o, to);
  Tensor y = empty({B, T, C}, to);
  const Tensor y_heads = y.view({B, T, n_head, hs}).transpose(1, 2);
  const uint64_t key = draw_dropout_key(o);
  const DType compute = fused_compute(be, q);
  be.attention(detail::ktensor(y_heads), detail::ktensor(att), detail::ktensor(q),
               detail::ktensor(k), detail::ktensor(v), scale, o.is_causal, o.dropout_p, key,
               compute);
  if (o.weights) *o.weights = causal_weights(att, o.is_causal);
  if (autograd::needs_grad({qkv})) {
    auto node = std::make_shared<PackedAttentionBackward>();
    node->qkv = qkv;
    node->att = att;
    node->n_head = n_head;
    node->scale = scale;
    node->causal = o.is_causal;
    node->dropout_p = o.dropout_p;
    node->dropout_key = key;
    node->compute = compute;
    autograd::connect(y, node, {qkv});
  }
  return y;
}

}  // namespace attic
