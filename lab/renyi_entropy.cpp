#include "lab/renyi_entropy.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "autograd/grad_mode.h"
#include "models/gpt/gpt.h"
#include "tensor/error.h"
#include "util/symmetric_eigen.h"

namespace attic::lab {

std::vector<double> gram_spectrum(const Tensor& h, bool centered) {
  ATTIC_CHECK(h.defined() && h.dim() == 2, "gram_spectrum: H must be [T, C], got ",
              h.defined() ? str(h.shape()) : std::string("undefined"));
  const int64_t T = h.size(0), C = h.size(1);
  const Tensor hc = h.to(kFloat64).contiguous();  // in double: the spectrum's small end matters
  std::vector<double> x(hc.data_ptr<double>(), hc.data_ptr<double>() + T * C);
  if (centered) {
    for (int64_t c = 0; c < C; ++c) {
      double mean = 0;
      for (int64_t t = 0; t < T; ++t) mean += x[size_t(t * C + c)];
      mean /= double(T);
      for (int64_t t = 0; t < T; ++t) x[size_t(t * C + c)] -= mean;
    }
    for (int64_t t = 0; t < T; ++t) {
      double norm = 0;
      for (int64_t c = 0; c < C; ++c) norm += x[size_t(t * C + c)] * x[size_t(t * C + c)];
      if (norm > 0)
        for (int64_t c = 0; c < C; ++c) x[size_t(t * C + c)] /= std::sqrt(norm);
    }
  }
  std::vector<double> gram(size_t(T * T));  // G = H Hᵀ, G_ij = <h_i, h_j>
  for (int64_t i = 0; i < T; ++i)
    for (int64_t j = 0; j <= i; ++j) {
      double dot = 0;
      for (int64_t c = 0; c < C; ++c) dot += x[size_t(i * C + c)] * x[size_t(j * C + c)];
      gram[size_t(i * T + j)] = gram[size_t(j * T + i)] = dot;
    }
  std::vector<double> p = symmetric_eigenvalues(std::move(gram), T).values;
  // G is positive semi-definite, so its exact eigenvalues are >= 0; rounding leaves the zero
  // ones at about ±T·ε·λ_max. Those are set to 0, with the cut NumPy's matrix_rank uses
  // (T·ε·λ_max): a negative p has no real p^α, and for α < 1 the noise would count (p = 1e-16
  // adds 1e-8 to Σ p^0.5). The fork's general eig keeps the real part as it comes.
  const double cut = double(T) * std::numeric_limits<double>::epsilon() * std::max(p.back(), 0.0);
  double total = 0;
  for (double& v : p) total += (v = v > cut ? v : 0.0);
  ATTIC_CHECK(total > 0, "gram_spectrum: H is all zeros, its spectrum has no mass");
  for (double& v : p) v /= total;
  return p;
}

double renyi_entropy(const std::vector<double>& p, double alpha) {
  ATTIC_CHECK(alpha > 0, "renyi_entropy: alpha must be positive, got ", alpha);
  ATTIC_CHECK(!p.empty(), "renyi_entropy: the distribution is empty");
  if (alpha == 1) {  // the limit α → 1 is Shannon's entropy
    double s = 0;
    for (double v : p)
      if (v > 0) s -= v * std::log(v);
    return s;
  }
  double sum = 0;
  for (double v : p) {
    ATTIC_CHECK(v >= 0, "renyi_entropy: p holds ", v, " < 0");
    if (v > 0) sum += std::pow(v, alpha);
  }
  return std::log(sum) / (1 - alpha);
}

std::vector<std::vector<double>> block_entropies(models::GPT& gpt, const Tensor& ids, double alpha,
                                                 bool centered) {
  NoGradGuard no_grad;
  const std::vector<Tensor> outs = gpt.block_outputs(ids);  // n_layer × [N, T, C]
  std::vector<std::vector<double>> s(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) {
    const Tensor h = outs[i].to(Device::CPU);
    for (int64_t n = 0; n < h.size(0); ++n)
      s[i].push_back(renyi_entropy(gram_spectrum(h.select(0, n), centered), alpha));
  }
  return s;
}

}  // namespace attic::lab
