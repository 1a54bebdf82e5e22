// Causal low-rank attention as prefix sums (models/linformer/prefix_attention.h): the
// chunked form against one softmax per query, at every chunk size and for each method's
// bias shape; with k = n and E = F = I it is causal softmax attention; gradcheck.
#include <cmath>

#include "helpers.h"
#include "models/linformer/prefix_attention.h"

using namespace attic;
using namespace attic::models::linformer;

namespace {

PrefixInputs random_inputs(int64_t B, int64_t m, int64_t d, int64_t k, int bias_kind) {
  PrefixInputs in;
  in.q = randn({B, m, d}, kFloat64);
  in.k = randn({B, m, d}, kFloat64);
  in.v = randn({B, m, d}, kFloat64);
  in.ME = randn({k, m}, kFloat64) * 0.5;
  in.MF = randn({k, m}, kFloat64) * 0.5;
  if (bias_kind == 1) {  // a learnable E: one bias per slot
    in.bE = randn({k, 1}, kFloat64);
    in.bF = randn({k, 1}, kFloat64);
  } else if (bias_kind == 2) {  // a convolution: one bias per channel
    in.bE = randn({1, d}, kFloat64);
    in.bF = randn({1, d}, kFloat64);
  }
  in.scale = 1.0 / std::sqrt(double(d));
  return in;
}

double max_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

Tensor identity(int64_t n) {
  std::vector<double> v(size_t(n * n), 0.0);
  for (int64_t i = 0; i < n; ++i) v[size_t(i * n + i)] = 1.0;
  return from_vector(v, {n, n});
}

}  // namespace

TEST_CASE("prefix attention: the chunked form equals one softmax per query", "[linformer]") {
  manual_seed(1);
  const int bias_kind = GENERATE(0, 1, 2);
  const int64_t chunk = GENERATE(1, 3, 4, 16, 64);
  INFO("bias " << bias_kind << " chunk " << chunk);
  PrefixInputs in = random_inputs(2, 13, 4, 5, bias_kind);  // 13 positions: a ragged last chunk
  Tensor P;
  Tensor y = prefix_attention(in, chunk, &P);
  CHECK(y.shape() == Shape{2, 13, 4});
  CHECK(max_diff(y, prefix_attention_naive(in)) < 1e-12);
  // P [B, m, k]: rows sum to 1, and slot s is closed to the query at i < s
  CHECK(P.shape() == Shape{2, 13, 5});
  CHECK(max_diff(sum(P, {-1}), ones({2, 13}, kFloat64)) < 1e-12);
  CHECK(max(abs(P.select(1, 0).narrow(1, 1, 4))).item<double>() == 0.0);
  CHECK(max(abs(P.select(1, 2).narrow(1, 3, 2))).item<double>() == 0.0);
}

TEST_CASE("prefix attention with k = n and E = F = I is causal softmax attention", "[linformer]") {
  manual_seed(2);
  const int64_t m = 9, d = 3;
  PrefixInputs in = random_inputs(2, m, d, m, 0);
  in.ME = identity(m);
  in.MF = identity(m);
  Tensor scores = matmul(in.q, in.k.transpose(-1, -2)) * in.scale;
  Tensor future = gt(arange(double(m)).view({1, m}), arange(double(m)).view({m, 1}));
  Tensor want = matmul(softmax(masked_fill(scores, future, -INFINITY), -1), in.v);
  CHECK(max_diff(prefix_attention(in, 4), want) < 1e-12);
}

TEST_CASE("prefix attention: output i does not change when positions after i do", "[linformer]") {
  manual_seed(3);
  PrefixInputs in = random_inputs(1, 12, 4, 6, 1);
  Tensor y = prefix_attention(in, 5);
  PrefixInputs changed = in;
  for (Tensor* t : {&changed.q, &changed.k, &changed.v}) {
    Tensor head = t->narrow(1, 0, 7), tail = randn({1, 5, 4}, kFloat64) * 10.0;
    *t = cat({head, tail}, 1);
  }
  Tensor y2 = prefix_attention(changed, 5);
  CHECK(max_diff(y.narrow(1, 0, 7), y2.narrow(1, 0, 7)) == 0.0);
  CHECK(max_diff(y.narrow(1, 7, 5), y2.narrow(1, 7, 5)) > 1e-3);
}

TEST_CASE("prefix attention: gradcheck through q, k, v, E, F and both biases", "[linformer][gradcheck]") {
  manual_seed(4);
  const int bias_kind = GENERATE(1, 2);
  PrefixInputs base = random_inputs(2, 7, 3, 4, bias_kind);
  std::vector<Tensor> leaves{base.q, base.k, base.v, base.ME, base.MF, base.bE, base.bF};
  for (Tensor& t : leaves) t.requires_grad_(true);
  CHECK(testing::gradcheck(
      [&](const std::vector<Tensor>& x) {
        PrefixInputs in = base;
        in.q = x[0], in.k = x[1], in.v = x[2], in.ME = x[3], in.MF = x[4], in.bE = x[5], in.bF = x[6];
        return prefix_attention(in, 3);
      },
      leaves));
}
