// Chapter 20: ELiTA's attention as prefix sums (acosharma/elita-transformer, main.py). One
// head, four positions, numbers small enough to follow by hand. Row i is a softmax over
// i + 2 logits: the diagonal slot d_i, and r_i + s_j for every j <= i. The prefix-sum form
// computes it with running sums and no N × N matrix; the explicit form builds the matrix.
// Then the logits grow a hundredfold: the original's clip to [−20, 20] changes the answer,
// the running maximum does not.
#include <cstdio>

#include "models/elita/attention2.h"

using namespace attic;
using models::elita::Numerics;

void print_rows(const char* label, const Tensor& y) {  // y [1, 1, N, A]
  const std::vector<double> v = y.to_vector<double>();
  std::printf("%-9s", label);
  for (size_t i = 0; i < v.size(); i += 2) std::printf("  (%7.4f, %7.4f)", v[i], v[i + 1]);
  std::printf("\n");
}

int main() {
  // s_j (key part), d_i (diagonal slot), r_i (row part) and v_j, as Attention2 makes them
  const Tensor s = from_vector<double>({0.5, -1.0, 2.0, 0.0}, {1, 1, 4});
  const Tensor d = from_vector<double>({1.0, 0.0, -0.5, 0.3}, {1, 1, 4});
  const Tensor r = from_vector<double>({0.2, 0.1, -0.3, 0.4}, {1, 1, 4});
  const Tensor v = from_vector<double>({1, 0, 0, 1, 1, 1, -1, 2}, {1, 1, 4, 2});

  const Tensor prefix = models::elita::prefix_softmax(s, d, r, v, Numerics::Stable);
  const Tensor full = models::elita::explicit_softmax(s, d, r, v, Numerics::Stable);
  std::printf("y_i for i = 0..3, each a mix of the values v_0..v_i and v_i again:\n");
  print_rows("prefix", prefix);
  std::printf("explicit form equal to 1e-12: %s\n",
              max(abs(prefix - full)).item<double>() < 1e-12 ? "yes" : "no");

  // Row 2's weights: softmax over {d_2, r_2 + s_0, r_2 + s_1, r_2 + s_2}
  const Tensor w = softmax(from_vector<double>({-0.5, -0.3 + 0.5, -0.3 - 1.0, -0.3 + 2.0}), 0);
  const std::vector<double> wv = w.to_vector<double>();
  std::printf("row 2: diagonal %.4f, keys 0..2 %.4f %.4f %.4f\n", wv[0], wv[1], wv[2], wv[3]);

  // A hundred times larger: s reaches 200
  const Tensor big = s * 100.0;
  std::printf("\nwith s x 100:\n");
  print_rows("explicit", models::elita::explicit_softmax(big, d, r, v, Numerics::Stable));
  print_rows("stable", models::elita::prefix_softmax(big, d, r, v, Numerics::Stable));
  print_rows("clip", models::elita::prefix_softmax(big, d, r, v, Numerics::Clip));
  return 0;
}
