// Chapter 10's exercise, solved.
#include "bigram.h"

using namespace attic;

// ids [N] -> [N - 1] int64: the flat index a·V + b of each pair (ids[t], ids[t + 1]).
static Tensor pair_index(const Tensor& ids, int64_t V) {
  const int64_t N = ids.numel();
  return ids.narrow(0, 0, N - 1) * double(V) + ids.narrow(0, 1, N - 1);
}

Tensor bigram_counts(const Tensor& ids, int64_t V) {
  const Tensor index = pair_index(ids, V);
  return index_add(zeros({V * V}, kFloat64), 0, index, ones({index.numel()}, kFloat64))
      .view({V, V});
}

Tensor bigram_probs(const Tensor& counts, double alpha) {
  const Tensor smoothed = counts + alpha;
  return smoothed / sum(smoothed, {1}, /*keepdim=*/true);
}

double bigram_nll(const Tensor& P, const Tensor& ids) {
  const Tensor p = index_select(P.reshape({-1}), 0, pair_index(ids, P.size(0)));
  return -mean(log(p)).item<double>();
}
