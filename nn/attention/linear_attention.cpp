#include "nn/attention/linear_attention.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "nn/attention/keep_mask.h"

namespace attic::nn {

namespace {

// num [..., T, d_v] / den [..., T, 1]. den is 0 only where every key is masked (φ > 0
// otherwise), and num is 0 there too: adding 1 to those denominators defines 0/0 as 0.
Tensor normalize(const Tensor& num, const Tensor& den) { return num / (den + eq(den, 0.0)); }

// x [B, T, W] -> [B, 1, 1], the largest element of each batch item (no gradient)
Tensor max_per_item(const Tensor& x) {
  return max(max(x.detach(), 2, true).values, 1, true).values;
}

}  // namespace

LinearAttention::LinearAttention(const AttentionOptions& opt, FeatureMap fm)
    : options(opt), feature_map(fm) {
  options.validate("LinearAttention");
  const Projections p = register_projections(*this, opt);
  fc_q = p.fc_q, fc_k = p.fc_k, fc_v = p.fc_v, fc_o = p.fc_o;
}

std::string LinearAttention::name() const {
  return feature_map == FeatureMap::EluPlusOne ? "linear_elu" : "linear_exp";
}

// x [*] -> [*]: elu(x) + 1 or exp(x)
Tensor feature_map_apply(FeatureMap feature_map, const Tensor& x) {
  return feature_map == FeatureMap::EluPlusOne ? elu(x) + 1.0 : exp(x);
}

// q [B, Tq, dim_q], k [B, Tk, dim_k], v [B, Tk, dim_v], keep [B, Tk] -> [B, Tq, dim_o]
Tensor LinearAttention::forward(const Tensor& q, const Tensor& k, const Tensor& v,
                                const Tensor& keep, bool causal) {
  ATTIC_CHECK(q.dim() == 3 && k.dim() == 3 && v.dim() == 3 && q.size(0) == k.size(0) &&
                  k.size(0) == v.size(0) && k.size(1) == v.size(1),
              "LinearAttention: q, k, v must be [B, Tq, dim_q], [B, Tk, dim_k], [B, Tk, dim_v], got ",
              str(q.shape()), ", ", str(k.shape()), ", ", str(v.shape()));
  ATTIC_CHECK(!keep.defined() || keep.dim() == 2, "LinearAttention: mask of shape ",
              str(keep.shape()), " has no O(n) form; give a [B, Tk] key padding mask (or causal)");
  const int64_t B = q.size(0), Tq = q.size(1), Tk = k.size(1), NH = options.num_heads;
  ATTIC_CHECK(!causal || Tq == Tk, "LinearAttention: causal attention needs as many queries as keys, got Tq = ",
              Tq, " and Tk = ", Tk);
  Tensor key_keep;
  if (keep.defined()) {
    Tensor m = keep_mask_4d(keep, B, Tq, Tk, false, "LinearAttention");  // [B,1,1,Tk]
    key_keep = m.squeeze(1).transpose(1, 2).to(q.dtype());                // [B, Tk, 1]
  }
  return fc_o->forward(linear_attention(fc_q->forward(q), fc_k->forward(k), fc_v->forward(v),
                                        NH, feature_map, causal, key_keep));
}

// qp [B, Tq, A], kp [B, Tk, A], vp [B, Tk, O], key_keep [B, Tk, 1] -> [B, Tq, O]
Tensor linear_attention(const Tensor& qp, const Tensor& kp, const Tensor& vp, int64_t NH,
                        FeatureMap feature_map, bool causal, const Tensor& key_keep,
                        CausalForm form) {
  const int64_t B = qp.size(0), Tq = qp.size(1);
  Tensor qf, kf, m;  // m [B, T, 1]: the causal key shift (Exp only)
  if (feature_map == FeatureMap::Exp) {
    // exp overflows float32 above 88. A shift c_i shared by one query's features scales
    // that query's numerator and denominator alike, and so does a shift c shared by every
    // key that query sees: both cancel exactly, so shift by the maxima (the largest
    // feature becomes e^0 = 1). Without a mask every query sees every key: one shift per
    // sequence. Under the causal mask query t sees keys 0..t only, so its shift is their
    // maximum m_t, never a later key's: a large future key would otherwise push every
    // earlier e^(k − c) to 0. Key j enters the sums as e^(k_j − m_j); see below.
    qf = exp(qp - max(qp.detach(), -1, true).values);
    if (causal) {
      m = running_max(max(kp.detach(), 2, true).values, 1);  // [B, T, 1]
      kf = exp(kp - m);
    } else {
      kf = exp(kp - max_per_item(kp));
    }
  } else {
    qf = feature_map_apply(feature_map, qp);
    kf = feature_map_apply(feature_map, kp);
  }
  if (key_keep.defined()) kf = kf * key_keep;  // masked keys get φ(k) = 0
  Tensor qh = split_heads(qf, NH);                   // [B, NH, Tq, dk]
  Tensor kh = split_heads(kf, NH);                   // [B, NH, Tk, dk]
  Tensor vh = split_heads(vp, NH);                   // [B, NH, Tk, dv]
  Tensor o;
  if (!causal) {
    Tensor ctx = matmul(kh.transpose(-2, -1), vh);   // [B, NH, dk, dv] = Σ_j φ(k_j) v_jᵀ
    Tensor ksum = sum(kh, {2}, true);                // [B, NH, 1, dk]  = Σ_j φ(k_j)
    o = normalize(matmul(qh, ctx), sum(qh * ksum, {-1}, true));
  } else if (form == CausalForm::Quadratic ||
             (form == CausalForm::Auto && Tq <= qh.size(-1) * vh.size(-1))) {
    // The same sums, grouped the other way: o_i = Σ_{j≤i} A_ij v_j / Σ_{j≤i} A_ij with
    // A_ij = φ(q_i)·φ(k_j), the causal mask as zeros in A.
    Tensor A = matmul(qh, kh.transpose(-2, -1));  // [B, NH, T, T]
    const Tensor below = tril(ones({Tq, Tq}, TensorOptions(kBool).device(A.device())));
    if (m.defined()) {
      // Exp: key j entered φ under its own shift m_j, and query i needs every key under
      // m_i, the prefix form's shift: A_ij picks up e^(m_j − m_i) <= 1 for j <= i. Above
      // the diagonal the exponent is clamped to 0 before the mask zeroes it, so no inf
      // appears even where a later key is huge. m carries no gradient.
      const Tensor mi = m.view({B, 1, Tq, 1}), mj = m.view({B, 1, 1, Tq});
      const Tensor none = zeros({1}, TensorOptions(A.dtype()).device(A.device()));
      A = A * where(below, exp(clamp(mj - mi, -INFINITY, 0.0)), none);
    } else {
      A = A * below.to(A.dtype());
    }
    o = normalize(matmul(A, vh), sum(A, {-1}, true));
  } else {
    // The prefix sums of the RNN at every position at once: S_i = Σ_{j≤i} φ(k_j) v_jᵀ is
    // a cumsum of outer products, [B, NH, T, dk, dv]: memory and time linear in T.
    // (The loop of tonyduan/transformer-blocks at commit b4af92e, src/blocks.py, keeps one
    // scalar per batch item, uses k·v instead of the outer product, and never normalizes;
    // this is its README's recurrence.)
    Tensor S, z;
    if (m.defined()) {
      // Exp: S_t and z_t are kept under the shift m_t, as step() keeps them. When the
      // running maximum grows, the sums so far are rescaled by r_t = e^(m_{t−1} − m_t) <= 1:
      //   S_t = r_t S_{t−1} + e^(k_t − m_t) v_tᵀ,   z_t = r_t z_{t−1} + e^(k_t − m_t)
      // which is Σ_{j≤t} e^(k_j − m_t) v_jᵀ exactly (decayed_cumsum, linear in T).
      const Tensor m_prev = Tq > 1 ? cat({m.narrow(1, 0, 1), m.narrow(1, 0, Tq - 1)}, 1) : m;
      const Tensor r = exp(m_prev - m).view({B, 1, Tq, 1});  // [B, 1, T, 1], r_0 = 1
      S = decayed_cumsum(kh.unsqueeze(-1) * vh.unsqueeze(-2), r.unsqueeze(-1), 2);
      z = decayed_cumsum(kh, r, 2);                  // [B, NH, T, dk]
    } else {
      S = cumsum(kh.unsqueeze(-1) * vh.unsqueeze(-2), 2);
      z = cumsum(kh, 2);                             // [B, NH, T, dk]
    }
    Tensor num = matmul(qh.unsqueeze(-2), S).squeeze(-2);  // [B, NH, T, dv]
    o = normalize(num, sum(qh * z, {-1}, true));
  }
  return merge_heads(o);
}

// The same inputs -> [B, Tq, dim_o] through the explicit [B, NH, Tq, Tk] kernel matrix
//   A_ij = φ(q_i)·φ(k_j) (· keep_ij), o_i = Σ_j A_ij v_j / Σ_j A_ij
Tensor LinearAttention::forward_naive(const Tensor& q, const Tensor& k, const Tensor& v,
                                      const Tensor& keep, bool causal) {
  const int64_t B = q.size(0), Tq = q.size(1), Tk = k.size(1), NH = options.num_heads;
  Tensor qh = split_heads(feature_map_apply(feature_map, fc_q->forward(q)), NH);
  Tensor kh = split_heads(feature_map_apply(feature_map, fc_k->forward(k)), NH);
  Tensor vh = split_heads(fc_v->forward(v), NH);
  Tensor A = matmul(qh, kh.transpose(-2, -1));
  Tensor m = keep_mask_4d(keep, B, Tq, Tk, causal, "LinearAttention");
  if (m.defined()) A = A * m;
  return fc_o->forward(merge_heads(normalize(matmul(A, vh), sum(A, {-1}, true))));
}

// q [B, dim_q], k [B, dim_k], v [B, dim_v] -> [B, dim_o]
Tensor LinearAttention::step(State& st, const Tensor& q, const Tensor& k, const Tensor& v) {
  ATTIC_CHECK(q.dim() == 2 && k.dim() == 2 && v.dim() == 2 && q.size(0) == k.size(0) &&
                  k.size(0) == v.size(0),
              "LinearAttention::step: q, k, v must be [B, dim_q], [B, dim_k], [B, dim_v], got ",
              str(q.shape()), ", ", str(k.shape()), ", ", str(v.shape()));
  Tensor o = linear_attention_step(st, fc_q->forward(q).unsqueeze(1), fc_k->forward(k).unsqueeze(1),
                                   fc_v->forward(v).unsqueeze(1), options.num_heads, feature_map);
  return fc_o->forward(o).squeeze(1);
}

// qp, kp [B, 1, A], vp [B, 1, O] -> [B, 1, O]; state updated in place:
//   S ← S + φ(k) vᵀ, z ← z + φ(k), o = φ(q)ᵀ S / φ(q)ᵀ z    (per head)
Tensor linear_attention_step(LinearAttentionState& st, const Tensor& qp, const Tensor& kp,
                             const Tensor& vp, int64_t NH, FeatureMap feature_map) {
  Tensor vh = split_heads(vp, NH);  // [B, NH, 1, dv]
  Tensor qf, kf;
  if (feature_map == FeatureMap::Exp) {
    // Online rescaling, as in online softmax: the sums are kept under the shift m, the
    // largest key feature so far. When a larger one arrives, the old sums are multiplied
    // by exp(m_old − m_new) <= 1, which is what shifting them by m_new would have given.
    Tensor m_new = max_per_item(kp);
    if (st.m.defined()) {
      m_new = maximum(st.m, m_new);
      Tensor r = exp(st.m - m_new).unsqueeze(-1);  // [B, 1, 1, 1]
      st.S = st.S * r;
      st.z = st.z * r.squeeze(-1);
    }
    st.m = m_new;
    qf = exp(qp - max(qp.detach(), -1, true).values);
    kf = exp(kp - m_new);
  } else {
    qf = feature_map_apply(feature_map, qp);
    kf = feature_map_apply(feature_map, kp);
  }
  Tensor qh = split_heads(qf, NH), kh = split_heads(kf, NH);  // [B, NH, 1, dk]
  Tensor dS = matmul(kh.transpose(-2, -1), vh);               // [B, NH, dk, dv]
  Tensor dz = kh.squeeze(2);                                  // [B, NH, dk]
  st.S = st.S.defined() ? st.S + dS : dS;
  st.z = st.z.defined() ? st.z + dz : dz;
  Tensor num = matmul(qh, st.S);                              // [B, NH, 1, dv]
  Tensor den = sum(qh.squeeze(2) * st.z, {-1}, true).unsqueeze(-1);  // [B, NH, 1, 1]
  return merge_heads(normalize(num, den));                    // [B, 1, O]
}

}  // namespace attic::nn
