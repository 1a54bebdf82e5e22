// Every differentiable op of attic. Each group lives in its own file under ops/,
// forward and backward side by side; the file named in each comment is where to read it.
//
// Conventions (PyTorch's): binary elementwise ops broadcast NumPy-style; `dim` may be
// negative; an op that gets a wrong shape, dtype, device or index throws attic::Error
// naming the op and the values.
#pragma once

#include <array>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "autograd/grad_mode.h"
#include "autograd/autocast_mode.h"
#include "tensor/adam_step.h"
#include "tensor/random.h"
#include "tensor/tensor.h"

namespace attic {

// ---- arithmetic (ops/arith.cpp): out = a ∘ b with broadcasting. A bool operand takes the
//      other's dtype (float32 beside a scalar), as in PyTorch; bool + bool is OR, bool *
//      bool is AND.
Tensor add(const Tensor& a, const Tensor& b);
Tensor sub(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor neg(const Tensor& x);
Tensor add(const Tensor& a, double b);
Tensor sub(const Tensor& a, double b);
Tensor mul(const Tensor& a, double b);
Tensor div(const Tensor& a, double b);

inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator-(const Tensor& x) { return neg(x); }
inline Tensor operator+(const Tensor& a, double b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, double b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, double b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, double b) { return div(a, b); }
inline Tensor operator+(double a, const Tensor& b) { return add(b, a); }
Tensor operator-(double a, const Tensor& b);  // 1.0 - mask works on a bool mask too
inline Tensor operator*(double a, const Tensor& b) { return mul(b, a); }
Tensor operator/(double a, const Tensor& b);

// ---- powers (ops/pow.cpp)
Tensor pow(const Tensor& x, double exponent);
Tensor pow(const Tensor& x, const Tensor& exponent);

// ---- unary math (ops/unary.cpp)
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor rsqrt(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor sin(const Tensor& x);
Tensor cos(const Tensor& x);

// ---- activations (ops/activation.cpp)
Tensor relu(const Tensor& x);
// approximate = "none" (exact, x Φ(x)) or "tanh" (GPT-2's approximation)
Tensor gelu(const Tensor& x, const std::string& approximate = "none");
Tensor silu(const Tensor& x);
Tensor elu(const Tensor& x, double alpha = 1.0);

// ---- clamping and elementwise extremes (ops/clamp.cpp)
Tensor clamp(const Tensor& x, double min, double max);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);

// ---- selection (ops/where.cpp): cond and mask are bool, as in PyTorch
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);  // cond ? a : b
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value);  // mask ? value : x

// ---- comparisons (ops/compare.cpp): bool tensors, true where the relation holds; no
//      gradient. A bool operand beside another dtype is promoted to it first.
Tensor gt(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, double b);
Tensor lt(const Tensor& a, double b);
Tensor ge(const Tensor& a, double b);
Tensor le(const Tensor& a, double b);
Tensor eq(const Tensor& a, double b);
Tensor ne(const Tensor& a, double b);

// ---- logic (ops/logical.cpp): any dtype in, nonzero = true; bool out; no gradient
Tensor logical_not(const Tensor& x);
Tensor logical_and(const Tensor& a, const Tensor& b);
Tensor logical_or(const Tensor& a, const Tensor& b);
Tensor logical_xor(const Tensor& a, const Tensor& b);

// ---- reductions (ops/reduce.cpp). The sum of a bool tensor counts its trues, in int64.
Tensor sum(const Tensor& x);  // over everything, 0-d result
Tensor sum(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim = false);
Tensor mean(const Tensor& x);
Tensor mean(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim = false);
// Sums a broadcast gradient back down to shape (the backward of every broadcasting op).
Tensor sum_to(const Tensor& x, const Shape& shape);

// ---- max and min (ops/max_min.cpp)
struct ValuesIndices {
  Tensor values;
  Tensor indices;  // int64
};
Tensor max(const Tensor& x);  // over everything, 0-d
Tensor min(const Tensor& x);
ValuesIndices max(const Tensor& x, int64_t dim, bool keepdim = false);
ValuesIndices min(const Tensor& x, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim = false);

// ---- variance (ops/var.cpp): sum((x - mean)^2) / (n - correction)
Tensor var(const Tensor& x, int64_t correction = 1);
Tensor var(const Tensor& x, const std::vector<int64_t>& dims, int64_t correction = 1,
           bool keepdim = false);
// Braced dims, var(x, {1}): without this overload {1} would pick var(x, correction = 1).
Tensor var(const Tensor& x, std::initializer_list<int64_t> dims, int64_t correction = 1,
           bool keepdim = false);

// ---- prefix sums (ops/cumsum.cpp); of a bool tensor, in int64
Tensor cumsum(const Tensor& x, int64_t dim);
// ---- decayed prefix sums (ops/decayed_cumsum.cpp): along dim, y_t = x_t + r_t ⊙ y_{t−1}
//      (reverse: y_t = x_t + r_{t+1} ⊙ y_{t+1}); r broadcasts to x's shape. r = 1 is cumsum.
Tensor decayed_cumsum(const Tensor& x, const Tensor& r, int64_t dim, bool reverse = false);
// ---- running maximum (ops/running_max.cpp): m_i = max(x_0, ..., x_i) along dim, detached
//      (a shift that cancels in the value it shifts, so it carries no gradient).
Tensor running_max(const Tensor& x, int64_t dim);

// ---- matrix product (ops/matmul.cpp): 1-D, 2-D and batched with broadcast batch dims
Tensor matmul(const Tensor& a, const Tensor& b);

// ---- softmax (ops/softmax.cpp)
Tensor softmax(const Tensor& x, int64_t dim);
Tensor log_softmax(const Tensor& x, int64_t dim);

// ---- attention (ops/attention.cpp): one functional attention, PyTorch's
//      F.scaled_dot_product_attention, softmax(q kᵀ · scale, masked) v (Vaswani et al. 2017,
//      eq. 1). q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] -> [*, Tq, hv].
struct SdpaOptions {
  // Keep mask, bool, broadcasting against [*, Tq, Tk]: true = attend, false = drop (the
  // logit of a dropped key becomes masked_logit). Undefined = keep every key.
  Tensor attn_mask = {};
  bool is_causal = false;        // also drop key j > query i (top-left aligned, as PyTorch)
  std::optional<double> scale = std::nullopt;  // default 1/√hs
  double dropout_p = 0.0;        // on the softmax weights; pass 0 outside training
  Generator* generator = nullptr;  // for the dropout; nullptr: the default generator
  // What a dropped logit becomes. -inf: weight exactly 0, and a row with no kept key is NaN
  // (PyTorch). tonyduan/transformer-blocks fills fp16's lowest, -65504, so such a row is
  // uniform instead (the mean of v).
  double masked_logit = -std::numeric_limits<double>::infinity();
  bool fused = true;             // false: always the composed ops (nanoGPT's flash = False)
  Tensor* weights = nullptr;     // when given, receives the softmax weights [*, Tq, Tk] (no grad)
};
// The fused kernel runs when it applies (fused, no attn_mask, and dropout_p == 0 or a backend
// that drops inside the kernel, the CPU's); otherwise the same math in public ops
// (scaled_dot_product_attention_naive). Both draw the same dropout mask.
Tensor scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                    const SdpaOptions& options = {});
// The general path: matmul, mul, masked_fill, softmax, dropout, matmul; differentiable to any
// order. The reference the fused kernel is tested against.
Tensor scaled_dot_product_attention_naive(const Tensor& q, const Tensor& k, const Tensor& v,
                                          const SdpaOptions& options = {});
// The same attention with q, k, v packed side by side as GPT's c_attn makes them: qkv
// [B, T, 3C] -> [B, T, C] over n_head heads, the heads side by side. Where the fused kernel
// applies it reads q, k, v out of qkv in place (one node, one gradient buffer); otherwise it
// is scaled_dot_product_attention on the split_heads views.
Tensor scaled_dot_product_attention_packed(const Tensor& qkv, int64_t n_head,
                                           const SdpaOptions& options = {});
// x [B, T, NH·hs] -> [B, NH, T, hs] (a view where x's layout allows, else a copy), and
// back: [B, NH, T, hs] -> [B, T, NH·hs], head h in columns h·hs .. (h+1)·hs − 1 (a copy).
Tensor split_heads(const Tensor& x, int64_t n_head);
Tensor merge_heads(const Tensor& x);
// qkv [B, T, 3C] as c_attn packs it -> the split_heads views of its q, k and v, each
// [B, NH, T, hs] (C = NH · hs).
std::array<Tensor, 3> split_qkv(const Tensor& qkv, int64_t n_head);

// ---- route attention's sum over sources (ops/routed_sum.cpp): router [L·NH], parts L tensors
//      [B, NH, T, hs] -> [B, NH, T, hs], head h the sum Σ_l router[l·NH + h] · parts_l[:, h].
//      routed_sum runs one fused kernel each way where the backend has one; routed_sum_naive
//      is the same sum as mul and add, the reference it is tested against.
Tensor routed_sum(const Tensor& router, const std::vector<Tensor>& parts);
Tensor routed_sum_naive(const Tensor& router, const std::vector<Tensor>& parts);
// The same sums for route's keys and values at once, on the packed projections: qkv [B, T, 3C]
// (q | k | v of the current stream, the last source) and kv, L − 1 tensors [B, T, 2C] (k_l | v_l
// of the earlier sources), routers [L·NH] -> [B, T, 3C] = q | Σ_l k_router · k_l | Σ_l v_router
// · v_l, head by head, ready for scaled_dot_product_attention_packed.
Tensor routed_sum_packed(const Tensor& k_router, const Tensor& v_router, const Tensor& qkv,
                         const std::vector<Tensor>& kv, int64_t n_head);
Tensor routed_sum_packed_naive(const Tensor& k_router, const Tensor& v_router, const Tensor& qkv,
                               const std::vector<Tensor>& kv, int64_t n_head);

// ---- ELiTA's prefix softmax (ops/prefix_softmax_scan.cpp): s, d, r [B, H, N], v [B, H, N, A]
//      -> y [B, H, N, A], row i the softmax over the logits {r_i + s_j : j ≤ i} ∪ {d_i} of the
//      values {v_j} ∪ {v_i}, in time linear in N:
//        y_i = (Σ_{j≤i} e^{r_i + s_j} v_j + e^{d_i} v_i) / (Σ_{j≤i} e^{r_i + s_j} + e^{d_i})
//      exact at any size of logit. prefix_softmax_scan runs one fused scan each way where the
//      backend has one; prefix_softmax_scan_naive is the same as public ops (decayed_cumsum
//      under the running maximum), the reference it is tested against.
Tensor prefix_softmax_scan(const Tensor& s, const Tensor& d, const Tensor& r, const Tensor& v);
Tensor prefix_softmax_scan_naive(const Tensor& s, const Tensor& d, const Tensor& r,
                                 const Tensor& v);

// ---- layer normalization (ops/layer_norm.cpp): over the last dim of x [..., C];
//      weight and bias are [C] or undefined.
Tensor layer_norm(const Tensor& x, const Tensor& weight, const Tensor& bias, double eps = 1e-5);

// ---- loss (ops/cross_entropy.cpp): logits [N, C], targets [N] int64; mean over targets
//      that are not ignore_index.
Tensor cross_entropy(const Tensor& logits, const Tensor& targets, int64_t ignore_index = -100);

// ---- indexing (ops/index_select.cpp, ops/gather.cpp, ops/embedding.cpp)
Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index);
Tensor index_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
Tensor gather(const Tensor& x, int64_t dim, const Tensor& index);
Tensor scatter_add(const Tensor& x, int64_t dim, const Tensor& index, const Tensor& src);
// weight [V, C], indices int64 of any shape S -> S + [C]
Tensor embedding(const Tensor& weight, const Tensor& indices);

// ---- joining and splitting (ops/cat.cpp)
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& x, int64_t split_size, int64_t dim = 0);  // views
std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim = 0);      // views

// ---- triangles (ops/tril.cpp): keep the lower / upper triangle of the last two dims
Tensor tril(const Tensor& x, int64_t diagonal = 0);
Tensor triu(const Tensor& x, int64_t diagonal = 0);

// ---- dropout (ops/dropout.cpp): in training, zero each element with probability p and
//      scale the rest by 1/(1-p); in eval, the identity.
Tensor dropout(const Tensor& x, double p, bool training, Generator* gen = nullptr);
// The same with the mask's key given: element i (row-major) kept iff Philox(key, i) says so
// (tensor/philox.h). dropout() is this with one key drawn from its generator; the same key
// drops the same elements again (the fused attention's backward relies on it).
Tensor dropout_with_key(const Tensor& x, double p, uint64_t key);

// ---- optimizer steps (ops/optim_step.cpp): fused, in place, no autograd.
// One Adam / AdamW update of p with gradient g and moments m, v (see optim/adam.cpp).
void adam_step_(const Tensor& p, const Tensor& g, const Tensor& m, const Tensor& v,
                const AdamStep& step);
// The same for lists: adam_step_(p[i], g[i], m[i], v[i], steps[i]) for every i, as one pass
// over all of them on each device (what Adam::step runs).
void adam_steps_(const std::vector<Tensor>& p, const std::vector<Tensor>& g,
                 const std::vector<Tensor>& m, const std::vector<Tensor>& v,
                 const std::vector<AdamStep>& steps);
// Σ x² over every element, accumulated in double (clip_grad_norm_).
double sum_squares(const Tensor& x);

}  // namespace attic
