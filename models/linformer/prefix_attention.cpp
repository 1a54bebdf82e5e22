#include "models/linformer/prefix_attention.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/ops.h"

namespace attic::models::linformer {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

void check(const PrefixInputs& in) {
  ATTIC_CHECK(in.q.dim() == 3 && in.k.shape() == in.q.shape() && in.v.shape() == in.q.shape(),
              "prefix_attention: q, k and v must be [B, m, d] alike, got ", str(in.q.shape()), ", ",
              str(in.k.shape()), " and ", str(in.v.shape()));
  const int64_t m = in.q.size(1);
  ATTIC_CHECK(in.ME.dim() == 2 && in.ME.size(1) == m && in.MF.shape() == in.ME.shape(),
              "prefix_attention: ME and MF must be [k, ", m, "], got ", str(in.ME.shape()), " and ",
              str(in.MF.shape()));
}

// x [B, m, d] -> [B, M, d] with zero rows after m; or M [k, m] -> [k, M] with zero columns.
Tensor pad_to(const Tensor& x, int64_t dim, int64_t M) {
  const int64_t m = x.size(dim);
  if (m == M) return x;
  Shape s = x.shape();
  s[size_t(dim)] = M - m;
  return cat({x, zeros(s, TensorOptions(x.dtype()).device(x.device()))}, dim);
}

// CX [B, N, k, d] -> the sum over the chunks before each: [B, N, k, d], 0 for the first.
Tensor exclusive_chunk_sum(const Tensor& CX) {
  const int64_t N = CX.size(1);
  Shape first = CX.shape();
  first[1] = 1;
  Tensor zero = zeros(first, TensorOptions(CX.dtype()).device(CX.device()));
  if (N == 1) return zero;
  return cat({zero, cumsum(CX.narrow(1, 0, N - 1), 1)}, 1);
}

}  // namespace

Tensor after_position(int64_t rows, int64_t cols, int64_t first, const TensorOptions& opt) {
  return gt(arange(double(cols), opt).view({1, cols}), arange(double(first), double(first + rows), 1.0, opt).view({rows, 1}));
}

// q, k̃, ṽ [B, m, d], ME, MF [k, m] -> [B, m, d], in chunks of c positions (N chunks).
Tensor prefix_attention(const PrefixInputs& in, int64_t chunk, Tensor* P) {
  check(in);
  const int64_t B = in.q.size(0), m = in.q.size(1), d = in.q.size(2), k = in.ME.size(0);
  const int64_t c = std::max<int64_t>(1, std::min(chunk, m));
  const int64_t N = (m + c - 1) / c, M = N * c;
  const TensorOptions opt = TensorOptions(in.q.dtype()).device(in.q.device());

  // Positions past m are zero keys and values under zero columns of ME and MF: they add
  // nothing to any slot, and their own outputs are cut off at the end.
  Tensor Qc = pad_to(in.q, 1, M).view({B, N, c, d});
  Tensor Kc = pad_to(in.k, 1, M).view({B, N, c, d});
  Tensor Vc = pad_to(in.v, 1, M).view({B, N, c, d});
  Tensor MEc = pad_to(in.ME, 1, M).reshape({k, N, c}).permute({1, 0, 2});  // [N, k, c]
  Tensor MFc = pad_to(in.MF, 1, M).reshape({k, N, c}).permute({1, 0, 2});

  // Slots as the chunk starts: Σ over earlier chunks of ME[:, j] ⊗ k̃_j, plus the bias.
  Tensor SK = exclusive_chunk_sum(matmul(MEc, Kc));  // [B, N, k, d]
  Tensor SV = exclusive_chunk_sum(matmul(MFc, Vc));
  if (in.bE.defined()) SK = SK + in.bE;
  if (in.bF.defined()) SV = SV + in.bF;

  // Inside a chunk, position r reads positions r' ≤ r: q_r · Σ_{r'≤r} ME[s, r'] k̃_r'
  // = Σ_{r'} [r' ≤ r] (q_r · k̃_r') ME[s, r'], a masked c × c product times MEᵀ.
  Tensor after = after_position(c, c, 0, opt);  // r' > r
  Tensor A = masked_fill(matmul(Qc, Kc.transpose(-1, -2)), after, 0.0);             // [B, N, c, c]
  Tensor scores = (matmul(Qc, SK.transpose(-1, -2)) + matmul(A, MEc.transpose(-1, -2))) * in.scale;

  // The package's (n, k) mask: slot s is open to the query at position i when s ≤ i.
  scores = masked_fill(scores, after_position(M, k, 0, opt).view({N, c, k}), kNegInf);
  Tensor p = softmax(scores, -1);  // [B, N, c, k]
  if (P) *P = p.reshape({B, M, k}).narrow(1, 0, m);
  p = dropout(p, in.dropout, in.training, in.gen);

  // y_r = Σ_s p_rs (SV[s] + Σ_{r'≤r} MF[s, r'] ṽ_r') = p SV + ((p MF) masked) ṽ.
  Tensor G = masked_fill(matmul(p, MFc), after, 0.0);  // [B, N, c, c]
  Tensor y = matmul(p, SV) + matmul(G, Vc);           // [B, N, c, d]
  return y.reshape({B, M, d}).narrow(1, 0, m);
}

// Query i from its own sums K̄_i = ME[:, :i+1] k̃[:i+1] + bE: one softmax per position.
Tensor prefix_attention_naive(const PrefixInputs& in) {
  check(in);
  const int64_t m = in.q.size(1), k = in.ME.size(0);
  const TensorOptions opt = TensorOptions(in.q.dtype()).device(in.q.device());
  std::vector<Tensor> rows;
  for (int64_t i = 0; i < m; ++i) {
    Tensor Kbar = matmul(in.ME.narrow(1, 0, i + 1), in.k.narrow(1, 0, i + 1));  // [B, k, d]
    Tensor Vbar = matmul(in.MF.narrow(1, 0, i + 1), in.v.narrow(1, 0, i + 1));
    if (in.bE.defined()) Kbar = Kbar + in.bE;
    if (in.bF.defined()) Vbar = Vbar + in.bF;
    Tensor s = matmul(in.q.narrow(1, i, 1), Kbar.transpose(-1, -2)) * in.scale;  // [B, 1, k]
    if (i + 1 < k) s = masked_fill(s, after_position(1, k, i, opt), kNegInf);
    Tensor p = dropout(softmax(s, -1), in.dropout, in.training, in.gen);
    rows.push_back(matmul(p, Vbar));  // [B, 1, d]
  }
  return cat(rows, 1);
}

}  // namespace attic::models::linformer
