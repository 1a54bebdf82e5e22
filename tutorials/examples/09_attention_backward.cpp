// Chapter 9: the backward of one causal attention head, derived on paper, written as loops
// over doubles, and checked against attic's autograd and against gradcheck.
//   forward:  S = q kᵀ / √hs (masked: -inf for u > t),  W = softmax(S) by rows,  y = W v
//   backward, given dy = dL/dy [T, hs]:
//     dW = dy vᵀ                                    [T, T]
//     dv = Wᵀ dy                                    [T, hs]
//     dS[t, u] = W[t, u] (dW[t, u] - Σ_u' W[t, u'] dW[t, u'])   (softmax's Jacobian)
//     dq = dS k / √hs,   dk = dSᵀ q / √hs           [T, hs]
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <vector>

#include "autograd/gradcheck.h"
#include "ops/ops.h"

using namespace attic;

using Mat = std::vector<std::vector<double>>;  // row-major, small

Mat zeros_mat(int rows, int cols) { return Mat(size_t(rows), std::vector<double>(size_t(cols), 0.0)); }

// q, k, v, dy [T, hs] -> dq, dk, dv [T, hs], recomputing the weights W [T, T] first.
void attention_backward_by_hand(const Mat& q, const Mat& k, const Mat& v, const Mat& dy,
                                Mat& dq, Mat& dk, Mat& dv) {
  const int T = int(q.size()), hs = int(q[0].size());
  const double scale = 1.0 / std::sqrt(double(hs));
  // forward again: the weights, 0 above the diagonal
  Mat W = zeros_mat(T, T);
  for (int t = 0; t < T; ++t) {
    double maxval = -std::numeric_limits<double>::infinity(), total = 0;
    for (int u = 0; u <= t; ++u) {
      for (int i = 0; i < hs; ++i) W[t][u] += q[t][i] * k[u][i] * scale;
      maxval = std::max(maxval, W[t][u]);
    }
    for (int u = 0; u <= t; ++u) total += (W[t][u] = std::exp(W[t][u] - maxval));
    for (int u = 0; u <= t; ++u) W[t][u] /= total;
  }
  dq = zeros_mat(T, hs), dk = zeros_mat(T, hs), dv = zeros_mat(T, hs);
  for (int t = 0; t < T; ++t) {
    // dW[t, u] = dy[t] · v[u], and dv[u] += W[t, u] dy[t]; only u <= t: W is 0 beyond
    std::vector<double> dW(size_t(T), 0.0);
    double dot = 0;  // Σ_u W[t, u] dW[t, u]
    for (int u = 0; u <= t; ++u) {
      for (int i = 0; i < hs; ++i) {
        dW[u] += dy[t][i] * v[u][i];
        dv[u][i] += W[t][u] * dy[t][i];
      }
      dot += W[t][u] * dW[u];
    }
    // dS through the softmax, then through S = q kᵀ / √hs
    for (int u = 0; u <= t; ++u) {
      const double dS = W[t][u] * (dW[u] - dot);
      for (int i = 0; i < hs; ++i) {
        dq[t][i] += dS * k[u][i] * scale;
        dk[u][i] += dS * q[t][i] * scale;
      }
    }
  }
}

// The library's ops for one head: q, k, v [T, hs] -> y [T, hs].
Tensor attention(const Tensor& q, const Tensor& k, const Tensor& v) {
  const int64_t T = q.size(0);
  Tensor s = matmul(q, k.t()) * (1.0 / std::sqrt(double(q.size(1))));
  s = masked_fill(s, triu(ones({T, T}, kBool), 1), -std::numeric_limits<double>::infinity());
  return matmul(softmax(s, -1), v);
}

Tensor to_tensor(const Mat& m) {
  std::vector<double> flat;
  for (const auto& row : m) flat.insert(flat.end(), row.begin(), row.end());
  return from_vector(flat, {int64_t(m.size()), int64_t(m[0].size())});
}

double max_diff(const Mat& a, const Tensor& b) {
  return max(abs(to_tensor(a) - b)).item<double>();
}

int main() {
  std::cout << std::boolalpha;
  // The q, k, v of 9.1, and a fixed upstream gradient dy.
  const Mat q = {{1, 0}, {0, 2}, {1, 1}, {-1, 1}};
  const Mat k = {{2, 0}, {0, 2}, {1, -1}, {1, 1}};
  const Mat v = {{1, 0}, {0, 1}, {2, 2}, {-1, 3}};
  const Mat dy = {{1, 0}, {0, 1}, {1, -1}, {2, 1}};

  // 1. By hand.
  Mat dq, dk, dv;
  attention_backward_by_hand(q, k, v, dy, dq, dk, dv);
  std::printf("by hand: dq[0] = (%.4f, %.4f), dv[3] = (%.4f, %.4f)\n", dq[0][0], dq[0][1],
              dv[3][0], dv[3][1]);

  // 2. attic's autograd: L = Σ y ⊙ dy has dL/dy = dy.
  Tensor Q = to_tensor(q).requires_grad_(), K = to_tensor(k).requires_grad_();
  Tensor V = to_tensor(v).requires_grad_();
  sum(attention(Q, K, V) * to_tensor(dy)).backward();
  std::cout << "max |by hand - autograd| < 1e-12: dq "
            << (max_diff(dq, Q.grad()) < 1e-12) << ", dk " << (max_diff(dk, K.grad()) < 1e-12)
            << ", dv " << (max_diff(dv, V.grad()) < 1e-12) << "\n";

  // 3. gradcheck: both against finite differences, on random inputs of T = 5, hs = 3.
  manual_seed(0);
  std::vector<Tensor> in = {randn({5, 3}, kFloat64).requires_grad_(),
                            randn({5, 3}, kFloat64).requires_grad_(),
                            randn({5, 3}, kFloat64).requires_grad_()};
  std::cout << "gradcheck of the ops: "
            << autograd::gradcheck([](const std::vector<Tensor>& x) {
                 return attention(x[0], x[1], x[2]);
               }, in) << "\n";
  return 0;
}
