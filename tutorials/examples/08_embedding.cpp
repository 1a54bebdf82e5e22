// Chapter 8: the embedding, a table of V rows of C numbers, as loops and as attic's op.
//   forward:   y[s] = W[ids[s]]                      a gather of rows       W [V, C] -> y [S, C]
//   backward:  dW[v] = Σ_{s : ids[s] = v} dy[s]      a scatter-add of rows  dy [S, C] -> dW [V, C]
// A token that occurs twice gets the sum of both positions' gradients in its one row.
#include <cstdio>
#include <iostream>
#include <vector>

#include "autograd/gradcheck.h"
#include "ops/ops.h"

using namespace attic;

using Mat = std::vector<std::vector<float>>;

// W [V, C], ids [S] -> y [S, C]
Mat embedding_by_hand(const Mat& W, const std::vector<int64_t>& ids) {
  Mat y;
  for (int64_t id : ids) y.push_back(W[size_t(id)]);
  return y;
}

// dy [S, C], ids [S] -> dW [V, C]: row ids[s] of dW accumulates dy[s]; rows of tokens that
// do not occur stay 0.
Mat embedding_backward_by_hand(const Mat& dy, const std::vector<int64_t>& ids, int V) {
  Mat dW(size_t(V), std::vector<float>(dy[0].size(), 0.0f));
  for (size_t s = 0; s < ids.size(); ++s)
    for (size_t c = 0; c < dy[s].size(); ++c) dW[size_t(ids[s])][c] += dy[s][c];
  return dW;
}

Tensor to_tensor(const Mat& m) {
  std::vector<float> flat;
  for (const auto& row : m) flat.insert(flat.end(), row.begin(), row.end());
  return from_vector(flat, {int64_t(m.size()), int64_t(m[0].size())});
}

int main() {
  std::cout << std::boolalpha;
  const int V = 5;
  const Mat W = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}};  // row v is (v, v, v)
  const std::vector<int64_t> ids = {1, 3, 1, 4};  // token 1 at positions 0 and 2
  const Mat dy = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};

  // 1. By hand.
  const Mat y = embedding_by_hand(W, ids);
  const Mat dW = embedding_backward_by_hand(dy, ids, V);

  // 2. attic: L = Σ y ⊙ dy has dL/dy = dy.
  Tensor w = to_tensor(W).requires_grad_();
  Tensor Y = embedding(w, from_vector(ids, {int64_t(ids.size())}));
  sum(Y * to_tensor(dy)).backward();
  std::cout << "y\n" << Y << "\ndW\n" << w.grad() << "\n";
  std::cout << "by hand equals attic exactly: y "
            << (to_tensor(y).to_vector<float>() == Y.to_vector<float>()) << ", dW "
            << (to_tensor(dW).to_vector<float>() == w.grad().to_vector<float>()) << "\n";

  // 3. Any shape of ids: [B, T] ids give [B, T, C], as the GPT uses it.
  Tensor ids2 = from_vector<int64_t>({1, 3, 1, 4, 0, 0}, {2, 3});
  std::cout << "ids [2, 3] -> " << str(embedding(w, ids2).shape()) << "\n";

  // 4. gradcheck, in float64.
  manual_seed(0);
  std::cout << "gradcheck: "
            << autograd::gradcheck([&](const std::vector<Tensor>& in) {
                 return embedding(in[0], ids2);
               }, {randn({V, 3}, kFloat64).requires_grad_()}) << "\n";
  return 0;
}
