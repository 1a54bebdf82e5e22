// The per-device kernel interface. Ops (ops/) check their inputs, then call one of
// these; kernels see raw pointers, shapes and strides, nothing else — no autograd, no Tensor.
// A new device adds one Backend subclass (tensor/cpu/, tensor/cuda/), not branches in ops.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tensor/adam_step.h"
#include "tensor/dtype.h"
#include "tensor/error.h"

namespace attic {

// What a kernel sees of a tensor: data points at element [0, ..., 0] (offset applied);
// strides are in elements and may be 0 (broadcast) or anything else (views).
struct KTensor {
  void* data = nullptr;
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;

  int64_t ndim() const { return int64_t(shape.size()); }
  int64_t numel() const;
  bool is_contiguous() const;
  template <class T> T* ptr() const { return static_cast<T*>(data); }
};

// One parameter of a list of Adam steps: p, g, m, v as adam_step takes them, and its scalars.
struct AdamSlot {
  KTensor p, g, m, v;
  AdamStep step;
};

enum class UnaryOp {
  Neg, Exp, Log, Sqrt, Rsqrt, Abs, Sign, Tanh, Sigmoid, Relu,
  GeluErf,     // x * Phi(x)
  GeluTanh,    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  Silu, Elu,   // Elu uses p0 = alpha
  Sin, Cos, Erf,
  Clamp,       // clamp to [p0, p1]
  PowScalar,   // x^p0
  Step,        // 1 where x > 0, else 0
};

enum class BinaryOp {
  Add, Sub, Mul, Div, Pow, Maximum, Minimum, Gt, Lt, Ge, Le, Eq, Ne,
  GeluErfBackward,  // a * (Phi(b) + b phi(b)): GeluErf's backward, g times its derivative at x
};

enum class ReduceOp { Sum, Max, Min };

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Device device() const = 0;

  // ---- memory
  virtual void* allocate(size_t nbytes) = 0;
  virtual void deallocate(void* ptr, size_t nbytes) noexcept = 0;
  // host <-> this device, contiguous bytes
  virtual void copy_from_host(void* dst, const void* src, size_t nbytes) = 0;
  virtual void copy_to_host(void* dst, const void* src, size_t nbytes) = 0;

  // ---- elementwise. Inputs have out's shape already (broadcast dims carry stride 0).
  virtual void fill(const KTensor& out, double value) = 0;
  virtual void copy(const KTensor& out, const KTensor& in) = 0;  // converts dtype if they differ
  virtual void unary(UnaryOp op, const KTensor& out, const KTensor& in, double p0, double p1) = 0;
  // a and b share one dtype, which out has too, except that a comparison (Gt ... Ne) writes
  // bool. On bool a and b: Add and Maximum are OR, Mul and Minimum AND, Pow is a OR NOT b.
  virtual void binary(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) = 0;
  // out = cond != 0 ? a : b
  virtual void where(const KTensor& out, const KTensor& cond, const KTensor& a,
                     const KTensor& b) = 0;

  // ---- reductions. out has in's rank with size 1 on every reduced dim.
  virtual void reduce(ReduceOp op, const KTensor& out, const KTensor& in) = 0;
  // Max or Min along dim: values and int64 indices have in's rank, size 1 at dim.
  virtual void arg_reduce(ReduceOp op, const KTensor& values, const KTensor& indices,
                          const KTensor& in, int64_t dim) = 0;
  // Σ in² over every element, accumulated in double (clip_grad_norm_).
  virtual double sum_squares(const KTensor& in) = 0;
  // Inclusive prefix sum along dim; out and in have the same shape.
  virtual void cumsum(const KTensor& out, const KTensor& in, int64_t dim) = 0;
  // The decayed prefix sum along dim, a first-order linear recurrence:
  //   out_t = in_t + r_t ⊙ out_{t−1}          (out_0 = in_0)
  //   reverse: out_t = in_t + r_{t+1} ⊙ out_{t+1}   (out_{n−1} = in_{n−1})
  // out and in have one shape; r has it too, broadcast dims with stride 0.
  virtual void decayed_cumsum(const KTensor& out, const KTensor& in, const KTensor& r,
                              int64_t dim, bool reverse) = 0;
  // The running maximum along dim, out_i = max(in_0, ..., in_i), float32 or float64; a NaN
  // stays the maximum from where it appears to the end of its line. out and in: one shape.
  virtual void running_max(const KTensor& out, const KTensor& in, int64_t dim) = 0;

  // ---- matrices. a [..., M, K] @ b [..., K, N] -> out [..., M, N]; the batch dims of a and b
  //      already have out's batch shape (broadcast ones carry stride 0). out is contiguous.
  virtual void matmul(const KTensor& out, const KTensor& a, const KTensor& b) = 0;
  // The same product with its operands rounded to `compute` (bfloat16, or float16 where the
  // backend has it) and summed in float32: autocast's products (autograd/autocast_mode.h). a and b are
  // float32 or of the compute dtype, out is float32 and contiguous. A backend without the
  // compute dtype fails with an Error naming it.
  virtual void matmul_reduced(const KTensor& out, const KTensor& a, const KTensor& b,
                              DType compute) = 0;
  // softmax (or log_softmax) along the last dim.
  virtual void softmax(const KTensor& out, const KTensor& in, bool log) = 0;
  // LayerNorm over the last dim of x [N, C] (contiguous): out = (x - mean) * rstd * w + b,
  // rstd = 1 / sqrt(var + eps). Also writes each row's mean [N] and rstd [N] (the backward
  // reads rstd). w and b may have data == nullptr (no affine weight / no bias).
  virtual void layer_norm(const KTensor& out, const KTensor& mean, const KTensor& rstd,
                          const KTensor& x, const KTensor& w, const KTensor& b, double eps) = 0;
  // Its backward (derived beside LayerNormBackward in ops/layer_norm.cpp), from the
  // forward's x and rstd and dout [N, C]: dx [N, C]; dw, db [C] are overwritten
  // (data == nullptr: not wanted). Each row's mean is recomputed from x, to more precision
  // than a saved copy in x's dtype would have.
  virtual void layer_norm_backward(const KTensor& dx, const KTensor& dw, const KTensor& db,
                                   const KTensor& dout, const KTensor& x, const KTensor& rstd,
                                   const KTensor& w) = 0;
  // Dropout with a counter-based mask: out = in ⊙ m / (1 - p), in and out contiguous and
  // alike, m_i = 1 iff dropout_bits(key, i) >= dropout_threshold(p) (tensor/philox.h) for
  // the element's row-major index i. The same key gives the same mask, so backward is this
  // call again on the gradient.
  virtual void dropout(const KTensor& out, const KTensor& in, double p, uint64_t key) = 0;
  // Scaled dot-product attention over the heads [*]: q [*, Tq, hs], k [*, Tk, hs],
  // v [*, Tk, hv] (any strides); out [*, Tq, hv] has unit column stride; att [*, Tq, Tk] is
  // contiguous and receives P = softmax(q kᵀ · scale, masked j > i when causal; att's
  // entries above the diagonal, all 0 in P, may then be left unwritten), and
  // out = dropout(P) v, the mask that of dropout(p, key) above over a contiguous
  // [*, Tq, Tk]'s elements. A backend whose attention_recomputes(att's bytes) may instead be
  // given att [*, Tq] contiguous (one dim fewer than q), to receive each row's
  // log Σ_j e^(scale q_i·k_j) over its visible keys, from which its backward forms P again.
  // A backend that has no dropout inside its kernel is only called with dropout_p = 0
  // (fused_dropout() false). compute, as matmul's and matmul_reduced's: kFloat32 for
  // products in the operands' own dtype (float32 or float64); under autocast a reduced dtype
  // that attention_computes() accepts, for float32 q, k, v: the products round their
  // operands to it and sum in float32, while the softmax, P and what is saved stay float32.
  virtual void attention(const KTensor& out, const KTensor& att, const KTensor& q,
                         const KTensor& k, const KTensor& v, double scale, bool causal,
                         double dropout_p, uint64_t dropout_key, DType compute) = 0;
  // Its backward: dq, dk, dv contiguous, shaped like q, k, v; dout any strides. causal, the
  // dropout and compute as in the forward: P is then zero above the diagonal, which a kernel
  // may skip.
  virtual void attention_backward(const KTensor& dq, const KTensor& dk, const KTensor& dv,
                                  const KTensor& dout, const KTensor& q, const KTensor& k,
                                  const KTensor& v, const KTensor& att, double scale,
                                  bool causal, double dropout_p, uint64_t dropout_key,
                                  DType compute) = 0;
  // Whether attention() can run its products in `compute` (above); every backend can with
  // kFloat32.
  virtual bool attention_computes(DType compute) const { return compute == DType::Float32; }
  // Whether attention() would rather save only each row's log-sum-exp than weights that
  // take weight_bytes, all heads together (see attention()).
  virtual bool attention_recomputes(double weight_bytes) const {
    (void)weight_bytes;
    return false;
  }
  // Whether attention() applies dropout itself (else the op takes the composed path).
  virtual bool fused_dropout() const { return false; }
  // Route attention's sum over sources (models/reflex/route_attention.h): src, L tensors
  // [B, NH, T, hs] of any strides, and w [L·NH] contiguous give out [B, NH, T, hs] (unit
  // stride in hs: contiguous, or the head view of a column block of [B, T, 3C]),
  //   out[b, h] = Σ_l w[l·NH + h] · src_l[b, h]
  // and from g [B, NH, T, hs] (any strides) its backward, dsrc_l [B, NH, T, hs] (unit stride
  // in hs) and dw [L·NH] contiguous:
  //   dsrc_l[b, h] = w[l·NH + h] · g[b, h]      dw[l·NH + h] = Σ_{b, t, i} g[b, h, t, i] · src_l[b, h, t, i]
  // A backend without them (fused_routed_sum() false) is not called: the op multiplies and adds.
  virtual bool fused_routed_sum() const { return false; }
  virtual void routed_sum(const KTensor& /*out*/, const KTensor& /*w*/,
                          const std::vector<KTensor>& /*src*/) {
    fail("routed_sum: this backend has no fused routed sum (fused_routed_sum() is false)");
  }
  virtual void routed_sum_backward(const std::vector<KTensor>& /*dsrc*/, const KTensor& /*dw*/,
                                   const KTensor& /*g*/, const KTensor& /*w*/,
                                   const std::vector<KTensor>& /*src*/) {
    fail("routed_sum_backward: this backend has no fused routed sum (fused_routed_sum() is false)");
  }
  // ELiTA's prefix softmax (models/elita/attention2.h; ops/prefix_softmax_scan.cpp holds its
  // math): from s, d, r [B, H, N] (any strides) and v [B, H, N, A] (unit stride in A), y
  // [B, H, N, A] (unit stride in A), row i the softmax over the logits {r_i + s_j : j ≤ i} ∪
  // {d_i} of the values {v_j} ∪ {v_i}:
  //   y_i = (Σ_{j≤i} e^{r_i + s_j} v_j + e^{d_i} v_i) / (Σ_{j≤i} e^{r_i + s_j} + e^{d_i})
  // and, for the backward, m, a, b [B, H, N] contiguous: m_i = max(s_0 .. s_i), and a_i, b_i
  // with p_ij = e^{s_j − m_i} a_i the probability of key j in row i and b_i the diagonal's.
  // Its backward: from g [B, H, N, A] (unit stride in A) and the forward's tensors, ds, dd,
  // dr [B, H, N] contiguous and dv [B, H, N, A] (unit stride in A).
  // A backend without them (fused_prefix_softmax() false) is not called: the op runs the
  // same math as public ops.
  virtual bool fused_prefix_softmax() const { return false; }
  virtual void prefix_softmax(const KTensor& /*y*/, const KTensor& /*m*/, const KTensor& /*a*/,
                              const KTensor& /*b*/, const KTensor& /*s*/, const KTensor& /*d*/,
                              const KTensor& /*r*/, const KTensor& /*v*/) {
    fail("prefix_softmax: this backend has no fused prefix softmax (fused_prefix_softmax() is false)");
  }
  virtual void prefix_softmax_backward(const KTensor& /*ds*/, const KTensor& /*dd*/,
                                       const KTensor& /*dr*/, const KTensor& /*dv*/,
                                       const KTensor& /*g*/, const KTensor& /*s*/,
                                       const KTensor& /*v*/, const KTensor& /*y*/,
                                       const KTensor& /*m*/, const KTensor& /*a*/,
                                       const KTensor& /*b*/) {
    fail("prefix_softmax_backward: this backend has no fused prefix softmax "
         "(fused_prefix_softmax() is false)");
  }
  // Keeps the lower (upper == false) or upper triangle of the last two dims, diagonal k.
  virtual void tril(const KTensor& out, const KTensor& in, int64_t k, bool upper) = 0;

  // ---- optimizers. One Adam / AdamW step in place over contiguous p, g, m, v of one shape.
  virtual void adam_step(const KTensor& p, const KTensor& g, const KTensor& m, const KTensor& v,
                         const AdamStep& step) = 0;
  // The step of every parameter of a list, each with its own scalars and dtype. By default
  // one adam_step each; a backend may run the whole list as one pass.
  virtual void adam_steps(const std::vector<AdamSlot>& slots) {
    for (const AdamSlot& s : slots) adam_step(s.p, s.g, s.m, s.v, s.step);
  }

  // ---- indexing. index is int64 and the op has checked its range.
  // out.select(dim, i) = in.select(dim, index[i])
  virtual void index_select(const KTensor& out, const KTensor& in, int64_t dim,
                            const KTensor& index) = 0;
  // out.select(dim, index[i]) += src.select(dim, i)
  virtual void index_add(const KTensor& out, int64_t dim, const KTensor& index,
                         const KTensor& src) = 0;
  // out[i][j] = in[index[i][j]][j] for dim 0 (and likewise for any dim); index has out's shape
  virtual void gather(const KTensor& out, const KTensor& in, int64_t dim,
                      const KTensor& index) = 0;
  // out[index[i][j]][j] += src[i][j] for dim 0; index has src's shape
  virtual void scatter_add(const KTensor& out, int64_t dim, const KTensor& index,
                           const KTensor& src) = 0;
};

// The backend of a device. backend_for(Device::CUDA) throws
// attic::Error("attic was built without CUDA") in a build without the toolkit, and
// "cuda: no CUDA device is available (<the driver's reason>)" in one without a GPU.
Backend& backend_for(Device device);

// True when attic was built with CUDA and the driver sees at least one GPU.
bool cuda_available();

}  // namespace attic
