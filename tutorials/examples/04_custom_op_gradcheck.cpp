// Chapter 4: an op with a backward written by hand — layer normalization over the last dim —
// checked against finite differences with gradcheck.
//
// Forward, x [N, C], w [C], b [C] -> out [N, C], one row at a time:
//   mean = (1/C) sum_c x_c,  var = (1/C) sum_c (x_c - mean)^2,  rstd = 1 / sqrt(var + eps)
//   norm_c = (x_c - mean) rstd,  out_c = norm_c w_c + b_c
// Backward, given g = dL/dout [N, C]:
//   db = sum over rows of g,  dw = sum over rows of g norm,  dnorm = g w
//   dx = rstd (dnorm - mean_c(dnorm) - norm mean_c(dnorm norm))
#include <iostream>

#include "autograd/gradcheck.h"
#include "autograd/graph.h"
#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "ops/ops.h"

using namespace attic;

const double kEps = 1e-5;

// Saves what backward needs: norm [N, C], rstd [N, 1], w [C].
struct LayerNormBackward final : autograd::Node {
  Tensor norm, rstd, w;
  bool forget_a_term = false;  // a deliberate bug, to see gradcheck catch it
  const char* name() const override { return "LayerNormBackward"; }
  // g: [N, C] -> {dx [N, C], dw [C], db [C]}
  std::vector<Tensor> backward(const Tensor& g) override {
    Tensor dnorm = g * w;
    Tensor dx = dnorm - mean(dnorm, {-1}, true);
    if (!forget_a_term) dx = dx - norm * mean(dnorm * norm, {-1}, true);
    return {rstd * dx, sum(g * norm, {0}), sum(g, {0})};
  }
};

// x [N, C], w [C], b [C] -> [N, C]; the forward records one node.
Tensor layernorm(const Tensor& x, const Tensor& w, const Tensor& b, bool buggy = false) {
  Tensor out, norm, rstd;
  {
    NoGradGuard no_grad;
    Tensor xc = x - mean(x, {-1}, true);
    rstd = rsqrt(mean(xc * xc, {-1}, true) + kEps);
    norm = xc * rstd;
    out = norm * w + b;
  }
  if (autograd::needs_grad({x, w, b})) {
    auto node = std::make_shared<LayerNormBackward>();
    node->norm = norm;
    node->rstd = rstd;
    node->w = w;
    node->forget_a_term = buggy;
    autograd::connect(out, node, {x, w, b});
  }
  return out;
}

// The same function built from library ops, so autograd derives its backward.
Tensor layernorm_composed(const Tensor& x, const Tensor& w, const Tensor& b) {
  Tensor xc = x - mean(x, {-1}, true);
  return xc * rsqrt(mean(xc * xc, {-1}, true) + kEps) * w + b;
}

// The number of nodes in t's graph (list_graph's items that are not leaves).
int count_nodes(const Tensor& t) {
  int n = 0;
  for (const autograd::GraphItem& item : autograd::list_graph(t).items) n += !item.is_leaf;
  return n;
}

int main() {
  std::cout << std::boolalpha;
  manual_seed(42);
  Tensor x = randn({3, 4}, kFloat64).requires_grad_();
  Tensor w = randn({4}, kFloat64).requires_grad_();
  Tensor b = randn({4}, kFloat64).requires_grad_();

  // 1. The forward records one node, where the composed version records one per op; with
  //    w = 1 and b = 0 every row has mean 0 and variance 1 (up to eps).
  Tensor out = layernorm(x, w, b);
  std::cout << "out = " << out << "\n";
  std::cout << "nodes recorded: " << count_nodes(out) << " by layernorm, "
            << count_nodes(layernorm_composed(x, w, b)) << " by layernorm_composed\n";
  Tensor norm = layernorm(x.detach(), ones({4}, kFloat64), zeros({4}, kFloat64));
  std::cout << "row means within 1e-12 of 0: "
            << (max(abs(mean(norm, {1}))).item<double>() < 1e-12) << "\n";
  std::cout << "row variances within 1e-3 of 1: "
            << (max(abs(mean(norm * norm, {1}) - 1)).item<double>() < 1e-3) << "\n";

  // 2. gradcheck: the hand-written backward against central differences, for x, w and b.
  auto f = [](const std::vector<Tensor>& in) { return layernorm(in[0], in[1], in[2]); };
  std::cout << "gradcheck(layernorm): " << autograd::gradcheck(f, {x, w, b}) << "\n";

  // 3. The same gradients as autograd finds for the composed version.
  Tensor g = randn({3, 4}, kFloat64);
  layernorm(x, w, b).backward(g);
  Tensor dx = x.grad(), dw = w.grad();
  x.set_grad({});
  w.set_grad({});
  layernorm_composed(x, w, b).backward(g);
  std::cout << "max |dx - dx_composed| < 1e-12: "
            << (max(abs(dx - x.grad())).item<double>() < 1e-12) << "\n";
  std::cout << "max |dw - dw_composed| < 1e-12: "
            << (max(abs(dw - w.grad())).item<double>() < 1e-12) << "\n";

  // 4. A backward with a term missing: gradcheck names the first element it disagrees on.
  auto bad = [](const std::vector<Tensor>& in) { return layernorm(in[0], in[1], in[2], true); };
  try {
    autograd::gradcheck(bad, {x, w, b});
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
  }

  // 5. attic's own layer_norm (ops/layer_norm.cpp, one fused kernel each way) gives the
  //    hand-written backward's gradients.
  x.set_grad({});
  w.set_grad({});
  layer_norm(x, w, b, kEps).backward(g);
  std::cout << "attic's layer_norm: max |dx - dx_hand| < 1e-12: "
            << (max(abs(dx - x.grad())).item<double>() < 1e-12) << ", max |dw - dw_hand| < 1e-12: "
            << (max(abs(dw - w.grad())).item<double>() < 1e-12) << "\n";
  return 0;
}
