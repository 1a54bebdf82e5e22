// scaled_dot_product_attention(q, k, v): softmax(q kᵀ · scale [+ causal mask]) v in one fused
// kernel (tensor/cpu/attention.cpp), the op nanoGPT calls when PyTorch has it ("flash").
// The same math as matmul → mul → masked_fill → softmax → matmul (Vaswani et al. 2017,
// eq. 1), which tests/tensor/ops/test_attention.cpp checks it against.
//
// Its backward is a kernel, not a composition of public ops, so it is not differentiable a
// second time; compose the ops where second derivatives are needed.
#include <array>
#include <cmath>

#include "tensor/ops/helpers.h"

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

struct AttentionBackward final : autograd::Node {
  Tensor q, k, v, att;  // inputs (detached views) and the softmax weights P
  double scale = 1;
  bool causal = false;
  const char* name() const override { return "AttentionBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor dq = heads_buffer(q.shape(), q), dk = heads_buffer(k.shape(), q),
           dv = heads_buffer(v.shape(), q);
    backend_for(q.device()).attention_backward(
        detail::ktensor(dq), detail::ktensor(dk), detail::ktensor(dv), detail::ktensor(g),
        detail::ktensor(q), detail::ktensor(k), detail::ktensor(v), detail::ktensor(att), scale,
        causal);
    return {dq, dk, dv};
  }
};

// qkv [B, T, 3C] -> the three [B, NH, T, hs] views of its q, k and v (C = NH · hs).
std::array<Tensor, 3> split_heads(const Tensor& qkv, int64_t n_head) {
  const int64_t B = qkv.size(0), T = qkv.size(1), C = qkv.size(2) / 3;
  std::array<Tensor, 3> parts;
  for (int64_t i = 0; i < 3; ++i)
    parts[size_t(i)] = qkv.narrow(2, i * C, C).view({B, T, n_head, C / n_head}).transpose(1, 2);
  return parts;
}

// The packed form's node: one input, qkv, and one gradient, written by the kernel straight
// into the three column blocks of d_qkv (no split, no zero-filled slices to add up).
struct PackedAttentionBackward final : autograd::Node {
  Tensor qkv, att;
  int64_t n_head = 1;
  double scale = 1;
  bool causal = false;
  const char* name() const override { return "PackedAttentionBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    const int64_t B = qkv.size(0), T = qkv.size(1), C = qkv.size(2) / 3;
    Tensor d_qkv = empty(qkv.shape(), TensorOptions(qkv.dtype()).device(qkv.device()));
    const auto [q, k, v] = split_heads(qkv, n_head);
    const auto [dq, dk, dv] = split_heads(d_qkv, n_head);
    const Tensor dy = g.view({B, T, n_head, C / n_head}).transpose(1, 2);
    backend_for(qkv.device()).attention_backward(
        detail::ktensor(dq), detail::ktensor(dk), detail::ktensor(dv), detail::ktensor(dy),
        detail::ktensor(q), detail::ktensor(k), detail::ktensor(v), detail::ktensor(att), scale,
        causal);
    return {d_qkv};
  }
};

}  // namespace

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] -> [*, Tq, hv]; scale defaults to 1/√hs.
// Causal masks key j > query i (top-left aligned, as PyTorch's is_causal).
// For 4-d inputs [B, NH, T, hs] the result is a transposed view of a [B, T, NH, hv] buffer
// (heads_buffer), so putting the heads side by side afterwards copies nothing.
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                    bool is_causal, std::optional<double> scale) {
  const char* op = "scaled_dot_product_attention";
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
  const int64_t Tq = q.size(-2), Tk = k.size(-2), hv = v.size(-1);
  const double s = scale ? *scale : 1.0 / std::sqrt(double(q.size(-1)));
  Backend& be = detail::backend_of(op, {q, k, v});
  const TensorOptions o = TensorOptions(q.dtype()).device(q.device());
  Shape att_shape = lead, out_shape = lead;
  att_shape.insert(att_shape.end(), {Tq, Tk});
  out_shape.insert(out_shape.end(), {Tq, hv});
  Tensor att = empty(att_shape, o);
  Tensor out = heads_buffer(out_shape, q);
  be.attention(detail::ktensor(out), detail::ktensor(att), detail::ktensor(q), detail::ktensor(k),
               detail::ktensor(v), s, is_causal);
  if (autograd::needs_grad({q, k, v})) {
    auto node = std::make_shared<AttentionBackward>();
    node->q = q.detach();
    node->k = k.detach();
    node->v = v.detach();
    node->att = att;
    node->scale = s;
    node->causal = is_causal;
    autograd::connect(out, node, {q, k, v});
  }
  return out;
}

}  // namespace attic

namespace attic {

// qkv [B, T, 3C] -> y [B, T, C]: the same attention over n_head heads of width hs = C / n_head,
// with q, k, v the three column blocks of qkv (what GPT's c_attn makes) and the heads of y
// side by side. Equal to scaled_dot_product_attention on the split views, reshaped back.
Tensor scaled_dot_product_attention_packed(const Tensor& qkv, int64_t n_head, bool is_causal) {
  const char* op = "scaled_dot_product_attention_packed";
  detail::check_defined(op, qkv);
  detail::check_floating(op, qkv);
  ATTIC_CHECK(qkv.dim() == 3 && qkv.size(2) % 3 == 0, op,
              ": expected qkv [B, T, 3C], got ", str(qkv.shape()));
  ATTIC_CHECK(n_head > 0 && (qkv.size(2) / 3) % n_head == 0, op, ": C = ", qkv.size(2) / 3,
              " is not divisible by n_head = ", n_head);
  const int64_t B = qkv.size(0), T = qkv.size(1), C = qkv.size(2) / 3, hs = C / n_head;
  const double scale = 1.0 / std::sqrt(double(hs));
  const TensorOptions o = TensorOptions(qkv.dtype()).device(qkv.device());
  const auto [q, k, v] = split_heads(qkv, n_head);
  Tensor att = empty({B, n_head, T, T}, o);
  Tensor y = empty({B, T, C}, o);
  const Tensor y_heads = y.view({B, T, n_head, hs}).transpose(1, 2);
  detail::backend_of(op, {qkv}).attention(detail::ktensor(y_heads), detail::ktensor(att),
                                           detail::ktensor(q), detail::ktensor(k),
                                           detail::ktensor(v), scale, is_causal);
  if (autograd::needs_grad({qkv})) {
    auto node = std::make_shared<PackedAttentionBackward>();
    node->qkv = qkv.detach();
    node->att = att;
    node->n_head = n_head;
    node->scale = scale;
    node->causal = is_causal;
    autograd::connect(y, node, {qkv});
  }
  return y;
}

}  // namespace attic
