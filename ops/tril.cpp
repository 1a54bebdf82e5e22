// tril and triu: keep the lower or upper triangle of the last two dims, zero the rest
// (the causal mask of attention is tril of ones).
#include "ops/helpers.h"

namespace attic {

namespace {

// y = x where kept, 0 elsewhere: a fixed mask, so dx = the same triangle of g.
struct TrilBackward final : autograd::Node {
  int64_t diagonal;
  bool upper;
  const char* name() const override { return upper ? "TriuBackward" : "TrilBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override {
    return {upper ? triu(g, diagonal) : tril(g, diagonal)};
  }
};

// x [..., N, M] -> y [..., N, M]; y[i][j] = x[i][j] where j - i <= k (tril) or
// j - i >= k (triu), else 0.
Tensor triangle(const char* op, const Tensor& x, int64_t k, bool upper) {
  detail::check_defined(op, x);
  detail::check_computes(op, x);
  ATTIC_CHECK(x.dim() >= 2, op, ": needs a tensor of at least 2 dims, got shape ",
              str(x.shape()));
  Tensor out = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  backend_for(x.device()).tril(detail::ktensor(out), detail::ktensor(x), k, upper);
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<TrilBackward>();
    node->diagonal = k;
    node->upper = upper;
    autograd::connect(out, node, {x});
  }
  return out;
}

}  // namespace

// x [..., N, M] -> y; keeps x[i][j] with j - i <= diagonal (0: the main diagonal and below).
Tensor tril(const Tensor& x, int64_t diagonal) { return triangle("tril", x, diagonal, false); }

// x [..., N, M] -> y; keeps x[i][j] with j - i >= diagonal (0: the main diagonal and above).
Tensor triu(const Tensor& x, int64_t diagonal) { return triangle("triu", x, diagonal, true); }

}  // namespace attic
