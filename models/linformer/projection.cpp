#include "models/linformer/projection.h"

#include <cmath>
#include <vector>

#include "nn/init.h"

namespace attic::models::linformer {

Projection::Projection(int64_t n_, int64_t k_, Method method_, int64_t d_, bool no_params_code_std)
    : n(n_), k(k_), d(d_), method(method_) {
  ATTIC_CHECK(n > 0 && k > 0 && d > 0 && k <= n, "linformer Projection: need 0 < k <= n and d > 0, got n ",
              n, ", k ", k, ", d ", d);
  switch (method) {
    case Method::Learnable: {
      // nn.Linear(n, k) with xavier_normal_ on its weight (the package's get_EF); the bias keeps
      // PyTorch's default, U[−1/√n, 1/√n].
      weight = register_parameter("weight", zeros({k, n}));
      nn::init::xavier_normal_(weight);
      bias = register_parameter("bias", zeros({k}));
      nn::init::uniform_(bias, -1.0 / std::sqrt(double(n)), 1.0 / std::sqrt(double(n)));
      break;
    }
    case Method::Convolution: {
      ATTIC_CHECK(n % k == 0, "linformer Projection: the convolution method needs k to divide n, got n ",
                  n, " and k ", k, " (its output would have ", n / (n / k), " slots)");
      window = n / k;
      // nn.Conv1d's defaults: kaiming_uniform(a = √5) over fan_in = d·w, the bias likewise.
      weight = register_parameter("weight", zeros({d, d, window}));
      nn::init::kaiming_uniform_(weight, std::sqrt(5.0));
      const double b = 1.0 / std::sqrt(double(d * window));
      bias = register_parameter("bias", zeros({d}));
      nn::init::uniform_(bias, -b, b);
      break;
    }
    case Method::NoParams: {
      // A Johnson-Lindenstrauss projection: entries N(0, 1/k), so that ‖Eᵀx‖ ≈ ‖x‖.
      weight = zeros({n, k});
      nn::init::normal_(weight, 0.0, no_params_code_std ? 1.0 / double(k) : 1.0 / std::sqrt(double(k)));
      break;
    }
  }
}

// x [B, m, d] -> [B, k, d]. Positions past m are zero rows, so they add nothing but the bias.
Tensor Projection::compress(const Tensor& x) const {
  ATTIC_CHECK(x.dim() == 3 && x.size(1) <= n && x.size(2) == d, "linformer Projection: expected [B, m, ",
              d, "] with m <= ", n, ", got ", str(x.shape()));
  const int64_t m = x.size(1);
  switch (method) {
    case Method::Learnable:  // W[:, :m] x + b: [k, m] @ [B, m, d] + [k, 1]
      return matmul(weight.narrow(1, 0, m), x) + bias.view({k, 1});
    case Method::NoParams:  // E[:m]ᵀ x
      return matmul(weight.narrow(0, 0, m).t(), x);
    case Method::Convolution: {
      // A convolution whose stride equals its kernel sees each window once: window s of x,
      // [w, d] flattened to w·d, times the kernel flattened the same way, W [d_out, w·d_in].
      Tensor full = m == n ? x : cat({x, zeros({x.size(0), n - m, d}, TensorOptions(x.dtype()).device(x.device()))}, 1);
      Tensor windows = full.reshape({x.size(0), k, window * d});                 // [B, k, w·d]
      Tensor w2 = weight.permute({0, 2, 1}).reshape({d, window * d});            // [d, w·d]
      return matmul(windows, w2.t()) + bias;                                     // [B, k, d]
    }
  }
  return Tensor();
}

// M [k, m]: compress(x) = M x̃ + bias for x with m positions.
Tensor Projection::matrix(int64_t m) const {
  ATTIC_CHECK(m >= 1 && m <= n, "linformer Projection: matrix over ", m, " positions, n is ", n);
  switch (method) {
    case Method::Learnable: return weight.narrow(1, 0, m);
    case Method::NoParams: return weight.narrow(0, 0, m).t();
    case Method::Convolution: {
      // 1 where position j lies in window s: j / w == s.
      std::vector<float> ones_at(size_t(k * m), 0.0f);
      for (int64_t j = 0; j < m; ++j) ones_at[size_t((j / window) * m + j)] = 1.0f;
      return from_vector(ones_at, {k, m}).to(weight.dtype()).to(weight.device());
    }
  }
  return Tensor();
}

Tensor Projection::column(int64_t j) const {
  ATTIC_CHECK(j >= 0 && j < n, "linformer Projection: position ", j, " is not in 0..", n - 1);
  if (method == Method::Convolution) {
    std::vector<float> one_hot(size_t(k), 0.0f);
    one_hot[size_t(j / window)] = 1.0f;
    return from_vector(one_hot).to(weight.dtype()).to(weight.device());
  }
  return method == Method::Learnable ? weight.select(1, j) : weight.select(0, j);
}

// x [B, m, d] at positions offset.. -> x̃ [B, m, d]: x itself, or for a convolution
// x̃_j = W[:, :, j mod w] x_j.
Tensor Projection::keyed(const Tensor& x, int64_t offset) const {
  if (method != Method::Convolution) return x;
  // Lead with offset mod w zero rows, so that row r of the padded input meets tap r mod w.
  const int64_t lead = offset % window;
  const int64_t B = x.size(0), m = x.size(1) + lead;
  const int64_t windows = (m + window - 1) / window;
  const TensorOptions opt = TensorOptions(x.dtype()).device(x.device());
  std::vector<Tensor> parts;
  if (lead > 0) parts.push_back(zeros({B, lead, d}, opt));
  parts.push_back(x);
  if (windows * window > m) parts.push_back(zeros({B, windows * window - m, d}, opt));
  Tensor full = parts.size() == 1 ? x : cat(parts, 1);
  Tensor taps = weight.permute({2, 1, 0});  // [w, d_in, d_out]: tap t as a matrix
  Tensor y = matmul(full.reshape({B, windows, window, 1, d}), taps);  // [B, windows, w, 1, d]
  return y.reshape({B, windows * window, d}).narrow(1, lead, x.size(1));
}

Tensor Projection::bias_rows() const {
  if (method == Method::Learnable) return bias.view({k, 1});  // one number per slot
  if (method == Method::Convolution) return bias.view({1, d});  // one per channel
  return Tensor();
}

}  // namespace attic::models::linformer
