// prefix_softmax_scan and running_max: hand-worked values, the fused scan against the same
// math as public ops forward and backward (on the views ELiTA's attention passes), gradcheck
// to the second order, and errors.
#include "autograd/grad_mode.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("running_max by hand, along any dim, detached", "[ops][running_max]") {
  const Tensor x = tensor({1, 3, 2, 5, -1, 0}, kFloat64).view({2, 3}).requires_grad_();
  CHECK_THAT(values(running_max(x, 1)), ApproxValues({1, 3, 3, 5, 5, 5}, 0));
  CHECK_THAT(values(running_max(x, 0)), ApproxValues({1, 3, 2, 5, 3, 2}, 0));
  CHECK_FALSE(running_max(x, -1).requires_grad());
  CHECK(error_message([&] { running_max(x, 2); }) == "running_max: dim 2 out of range for 2 dims");
  // A NaN is the maximum from where it appears on; a bfloat16 x keeps its dtype.
  const Tensor n = tensor({1, NAN, 7, 2}).view({1, 4});
  const std::vector<double> m = values(running_max(n, 1));
  CHECK(m[0] == 1);
  CHECK((std::isnan(m[1]) && std::isnan(m[2]) && std::isnan(m[3])));
  const Tensor b = tensor({0.5, -2, 3, 1}).to(kBFloat16);
  CHECK(running_max(b, 0).dtype() == kBFloat16);
  CHECK_THAT(values(running_max(b, 0)), ApproxValues({0.5, 0.5, 3, 3}, 0));
  CHECK(error_message([&] { running_max(tensor({1, 2}).to(kInt64), 0); }) ==
        "running_max: x must be floating point, got int64");
}

TEST_CASE("prefix_softmax_scan by hand", "[ops][prefix_softmax]") {
  // One line, N 2, A 1: s = [0, ln 2], d = r = 0, v = [1, 3].
  //   row 0: logits {r0 + s0, d0} = {0, 0} over values {1, 1}: y0 = 1
  //   row 1: logits {0, ln 2, 0}, probabilities {1/4, 1/2, 1/4} over {1, 3, 3}: y1 = 2.5
  // The gradient of sum(y): a logit of probability p and value u in row i gets p (u − y_i);
  // row 0's values are all 1, so it gives none, and each value gets its total probability.
  //   ds = [1/4 (1 − 2.5), 1/2 (3 − 2.5)] = [−0.375, 0.25],  dd_1 = 1/4 (3 − 2.5) = 0.125,
  //   dr_1 = −0.375 + 0.25 = −0.125,  dv = [1/2 + 1/2 + 1/4, 1/2 + 1/4] = [1.25, 0.75]
  for (const bool fused : {true, false}) {
    INFO((fused ? "fused" : "math"));
    const Tensor s = tensor({0, std::log(2.0)}, kFloat64).view({1, 1, 2}).requires_grad_();
    const Tensor d = zeros({1, 1, 2}, kFloat64).requires_grad_();
    const Tensor r = zeros({1, 1, 2}, kFloat64).requires_grad_();
    const Tensor v = tensor({1, 3}, kFloat64).view({1, 1, 2, 1}).requires_grad_();
    const Tensor y = fused ? prefix_softmax_scan(s, d, r, v) : prefix_softmax_scan_naive(s, d, r, v);
    CHECK_THAT(values(y), ApproxValues({1, 2.5}, 1e-12));
    sum(y).backward();
    CHECK_THAT(values(s.grad()), ApproxValues({-0.375, 0.25}, 1e-12));
    CHECK_THAT(values(d.grad()), ApproxValues({0, 0.125}, 1e-12));
    CHECK_THAT(values(r.grad()), ApproxValues({0, -0.125}, 1e-12));
    CHECK_THAT(values(v.grad()), ApproxValues({1.25, 0.75}, 1e-12));
  }
}

TEST_CASE("prefix_softmax_scan equals prefix_softmax_scan_naive on ELiTA's views, with every "
          "gradient", "[ops][prefix_softmax]") {
  // s, d, r as the narrowed transposes of one [B, N, 3H] product, v the head view of
  // [B, N, H·A], logits up to about ±50 (the running maximum keeps both exact)
  manual_seed(8);
  const int64_t B = 2, N = 33, H = 3, A = 5;
  for (const DType dt : {kFloat32, kFloat64}) {
    const Tensor kx = (randn({B, N, 3 * H}, dt) * 20.0).requires_grad_();
    const Tensor vx = randn({B, N, H * A}, dt).requires_grad_();
    const Tensor g = randn({B, H, N, A}, dt);
    auto run = [&](bool fused) {
      const Tensor t = kx.transpose(1, 2);
      const Tensor s = t.narrow(1, 0, H), d = t.narrow(1, H, H), r = t.narrow(1, 2 * H, H);
      const Tensor v = split_heads(vx, H);
      const Tensor y = fused ? prefix_softmax_scan(s, d, r, v) : prefix_softmax_scan_naive(s, d, r, v);
      sum(y * g).backward();
      std::vector<std::vector<double>> out = {values(y), values(kx.grad()), values(vx.grad())};
      kx.set_grad({});
      vx.set_grad({});
      return out;
    };
    const auto fused = run(true), math = run(false);
    const double tol = dt == kFloat32 ? 1e-4 : 1e-10;
    for (size_t i = 0; i < fused.size(); ++i) {
      INFO(dtype_name(dt) << ", output " << i << " (y, d kx, d vx)");
      CHECK_THAT(fused[i], ApproxValues(math[i], tol));
    }
  }
}

TEST_CASE("prefix_softmax_scan gradcheck, first and second order", "[ops][prefix_softmax][grad]") {
  manual_seed(9);
  const Tensor s = leaf64({2, 2, 6}), d = leaf64({2, 2, 6}), r = leaf64({2, 2, 6}),
               v = leaf64({2, 2, 6, 3});
  CHECK(gradcheck([](const std::vector<Tensor>& x) {
    return prefix_softmax_scan(x[0], x[1], x[2], x[3]);
  }, {s, d, r, v}));
  // v a transposed view: strides along A other than 1
  CHECK(gradcheck([](const std::vector<Tensor>& x) {
    return prefix_softmax_scan(x[0], x[1], x[2], x[3].transpose(2, 3));
  }, {leaf64({1, 2, 4}), leaf64({1, 2, 4}), leaf64({1, 2, 4}), leaf64({1, 2, 3, 4})}));
  // the gradient itself, recorded, checked again
  const Tensor gy = randn({2, 2, 6, 3}, kFloat64);
  CHECK(gradcheck([&](const std::vector<Tensor>& x) {
    autograd::EnableGradGuard on;
    std::vector<Tensor> in;
    for (const Tensor& t : x) {
      in.push_back(t * 1.0);
      in.back().retain_grad();
    }
    const Tensor y = prefix_softmax_scan(in[0], in[1], in[2], in[3]);
    sum(y * y * gy).backward(Tensor(), /*retain_graph=*/true, /*create_graph=*/true);
    Tensor out = sum(in[0].grad() * in[0].grad());
    for (size_t i = 1; i < 4; ++i) out = out + sum(in[i].grad() * in[i].grad());
    for (const Tensor& t : in) t.set_grad({});
    for (const Tensor& t : x) t.set_grad({});
    return out;
  }, {s, d, r, v}));
}

TEST_CASE("prefix_softmax_scan rejects parts that do not fit", "[ops][prefix_softmax][errors]") {
  const Tensor s = zeros({1, 2, 5}), v = zeros({1, 2, 5, 3});
  CHECK(error_message([&] { prefix_softmax_scan(s, s, zeros({1, 2, 4}), v); }) ==
        "prefix_softmax_scan: s, d, r must be [B, H, N] and v [B, H, N, A], got [1, 2, 5], "
        "[1, 2, 5], [1, 2, 4] and [1, 2, 5, 3]");
  CHECK(error_message([&] { prefix_softmax_scan(s, s, s, zeros({1, 2, 6, 3})); }) ==
        "prefix_softmax_scan: s, d, r must be [B, H, N] and v [B, H, N, A], got [1, 2, 5], "
        "[1, 2, 5], [1, 2, 5] and [1, 2, 6, 3]");
  CHECK(error_message([&] { prefix_softmax_scan(s, s, s, zeros({1, 2, 5, 3}, kFloat64)); })
            .find("prefix_softmax_scan") == 0);
  CHECK(error_message([&] { prefix_softmax_scan(Tensor(), s, s, v); }).find("prefix_softmax_scan") == 0);
}
