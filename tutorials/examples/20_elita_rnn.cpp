// Chapter 20: what ELiTA keeps between tokens. With absolute positions t_i = i/(block_size−1)
// Attention2 is an RNN: step() carries A + 2 numbers per head (the running maximum m, and
// the sums S and Z under it) and gives what forward() gives, row for row. With the
// original's relative positions t_i = i/(N−1), every position moves when a token arrives,
// so the first rows of a longer input are not those of the shorter one.
#include <cstdio>

#include "models/elita.h"
#include "tensor/threads.h"

using namespace attic;
using namespace attic::models::elita;

int main() {
  set_num_threads(1);
  manual_seed(0);
  Attention2Options o;  // W = 16, H = 2 heads of value width A = 8, P = 4 sinusoids
  o.width = 16, o.heads = 2, o.att_w = 8, o.pos_w = 4, o.block_size = 32;
  o.positions = Positions::Absolute;
  Attention2 absolute(o);
  {
    // Keras starts a, b, c at U(−0.05, 0.05), where positions barely matter yet; make them
    // matter, as training does.
    NoGradGuard no_grad;
    for (Tensor* t : {&absolute.a1, &absolute.a2, &absolute.c}) t->mul_(40.0);
  }
  const Tensor x = randn({1, 20, 16});  // [B, N, W]

  const Tensor y = absolute.forward(x);
  auto state = absolute.start_decoding();
  std::vector<Tensor> rows;
  for (int64_t i = 0; i < 20; ++i) rows.push_back(absolute.step(*state, x.narrow(1, i, 1), {}));
  std::printf("absolute: 20 steps equal forward() to 1e-5: %s\n",
              max(abs(cat(rows, 1) - y)).item<double>() < 1e-5 ? "yes" : "no");
  auto& st = dynamic_cast<Attention2::State&>(*state);
  std::printf("state after 20 tokens: m %s, S %s, Z %s: %lld numbers per head\n",
              str(st.m.shape()).c_str(), str(st.S.shape()).c_str(), str(st.Z.shape()).c_str(),
              (long long)((st.m.numel() + st.S.numel() + st.Z.numel()) / 2));

  o.positions = Positions::Relative;
  Attention2 relative(o);
  relative.load_state_dict(absolute.state_dict());
  const double moved = max(abs(relative.forward(x).narrow(1, 0, 10) -
                               relative.forward(x.narrow(1, 0, 10)))).item<double>();
  std::printf("relative: rows 0..9 of a length-20 input differ from a length-10 input: %s\n",
              moved > 1e-3 ? "yes" : "no");
  std::printf("relative: a step state? %s\n", relative.start_decoding() ? "yes" : "no");

  FeedForward2 ff(16);
  std::printf("\nFeedForward2(W = 16, F = 8): %lld parameters = 9W² + 10W + 8; a 4W MLP has "
              "8W² + 5W = %lld\n", (long long)ff.num_parameters(), (long long)(8 * 16 * 16 + 5 * 16));
  return 0;
}
