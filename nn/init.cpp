#include "nn/init.h"

#include <cmath>

namespace attic::nn::init {

// Draws on the host from the generator, then copies into t (any device, any strides).
template <class Draw>
static void fill_from(Tensor& t, Draw draw) {
  ATTIC_CHECK(t.defined(), "init: got an undefined tensor");
  ATTIC_CHECK(is_floating(t.dtype()), "init: needs a floating tensor, got ", dtype_name(t.dtype()));
  std::vector<double> v(size_t(t.numel()));
  for (double& x : v) x = draw();
  NoGradGuard no_grad;
  t.copy_(from_vector(v, t.shape(), TensorOptions(t.dtype())).to(t.device()));
}

void normal_(Tensor& t, double mean, double std, Generator* gen) {
  Generator& g = gen ? *gen : default_generator();
  fill_from(t, [&] { return mean + std * g.normal(); });
}

void uniform_(Tensor& t, double a, double b, Generator* gen) {
  Generator& g = gen ? *gen : default_generator();
  fill_from(t, [&] { return a + (b - a) * g.uniform(); });
}

void constant_(Tensor& t, double value) {
  NoGradGuard no_grad;
  t.fill_(value);
}
void zeros_(Tensor& t) { constant_(t, 0.0); }
void ones_(Tensor& t) { constant_(t, 1.0); }

std::pair<int64_t, int64_t> fans(const Tensor& t) {
  ATTIC_CHECK(t.dim() >= 2, "init: fan in and fan out need a tensor of at least 2 dims, got ",
              str(t.shape()));
  // a product, not numel / (size(0) · size(1)), which divides by zero for [0, in]
  int64_t receptive = 1;
  for (int64_t d = 2; d < t.dim(); ++d) receptive *= t.size(d);
  return {t.size(1) * receptive, t.size(0) * receptive};
}

void xavier_uniform_(Tensor& t, double gain, Generator* gen) {
  auto [in, out] = fans(t);
  const double a = gain * std::sqrt(6.0 / double(in + out));
  uniform_(t, -a, a, gen);
}

std::pair<int64_t, int64_t> keras_fans(const Tensor& t) {
  ATTIC_CHECK(t.dim() >= 2, "init: Keras fans need a tensor of at least 2 dims, got ", str(t.shape()));
  int64_t receptive = 1;
  for (int64_t d = 0; d + 2 < t.dim(); ++d) receptive *= t.size(d);
  return {t.size(-2) * receptive, t.size(-1) * receptive};
}

void keras_glorot_uniform_(Tensor& t, Generator* gen) {
  auto [in, out] = keras_fans(t);
  const double a = std::sqrt(6.0 / double(in + out));
  uniform_(t, -a, a, gen);
}

void xavier_normal_(Tensor& t, double gain, Generator* gen) {
  auto [in, out] = fans(t);
  normal_(t, 0.0, gain * std::sqrt(2.0 / double(in + out)), gen);
}

void kaiming_uniform_(Tensor& t, double a, Generator* gen) {
  const double bound = std::sqrt(6.0 / ((1 + a * a) * double(fans(t).first)));
  uniform_(t, -bound, bound, gen);
}

void kaiming_normal_(Tensor& t, double a, Generator* gen) {
  normal_(t, 0.0, std::sqrt(2.0 / ((1 + a * a) * double(fans(t).first))), gen);
}

}  // namespace attic::nn::init
