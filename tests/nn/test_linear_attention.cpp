// nn/attention/linear_attention: the O(n) forms against the O(n²) kernel form, the RNN
// step, masks (a masked key changes nothing), and gradcheck.
#include <cmath>

#include "module64.h"
#include "nn/attention/linear_attention.h"

using namespace attic;
using namespace attic::testing;

namespace {

nn::AttentionOptions opts(int64_t d, int64_t heads) {
  nn::AttentionOptions o;
  o.dim_q = o.dim_k = o.dim_v = d;
  o.num_heads = heads;
  return o;
}

const nn::FeatureMap kMaps[] = {nn::FeatureMap::EluPlusOne, nn::FeatureMap::Exp};

}  // namespace

TEST_CASE("linear attention by hand, elu+1 feature map", "[nn][linear_attention]") {
  // identity projections, one head: q = [0, 0] -> φ = [1, 1];
  //   k_1 = [0, 0] -> [1, 1], k_2 = [1, −1] -> [2, e^−1] = [2, 0.367879]; v = I
  //   sims φ(q)·φ(k): 2 and 2.367879, sum 4.367879
  //   out = [2, 2.367879] / 4.367879 = [0.457888, 0.542112]
  nn::LinearAttention la(opts(2, 1), nn::FeatureMap::EluPlusOne);
  for (auto* fc : {la.fc_q.get(), la.fc_k.get(), la.fc_v.get(), la.fc_o.get()})
    set_values(fc->weight, tensor({{1, 0}, {0, 1}}));
  Tensor q = tensor({{{0, 0}}}), k = tensor({{{0, 0}, {1, -1}}}), v = tensor({{{1, 0}, {0, 1}}});
  CHECK_THAT(values(la(q, k, v)), ApproxValues({0.457888, 0.542112}, 1e-5));
  CHECK_THAT(values(la.forward_naive(q, k, v)), ApproxValues({0.457888, 0.542112}, 1e-5));
}

TEST_CASE("non-causal linear attention equals the explicit kernel form, with and without padding",
          "[nn][linear_attention]") {
  for (nn::FeatureMap fm : kMaps) {
    nn::LinearAttention la(opts(8, 2), fm);
    Tensor q = randn({2, 5, 8}), kv = randn({2, 7, 8});
    CHECK(max_abs_diff(la(q, kv, kv), la.forward_naive(q, kv, kv)) < 1e-5);
    Tensor keep = tensor({{1, 1, 0, 1, 1, 1, 0}, {0, 1, 1, 1, 1, 1, 1}}, kBool);
    Tensor y = la(q, kv, kv, keep);
    CHECK(max_abs_diff(y, la.forward_naive(q, kv, kv, keep)) < 1e-5);
    // masked keys have no influence
    Tensor kv2 = where(logical_not(keep).unsqueeze(-1), randn({2, 7, 8}) * 5.0, kv);
    CHECK(max_abs_diff(la(q, kv2, kv2, keep), y) < 1e-5);
  }
}

TEST_CASE("the causal prefix-sum form and the step RNN equal the masked kernel form",
          "[nn][linear_attention][causal]") {
  for (nn::FeatureMap fm : kMaps) {
    nn::LinearAttention la(opts(6, 3), fm);
    Tensor x = randn({2, 6, 6}) * 2.0;
    Tensor y = la(x, x, x, Tensor(), true);
    CHECK(max_abs_diff(y, la.forward_naive(x, x, x, Tensor(), true)) < 1e-5);
    // output t depends on tokens 0..t only
    Tensor x2 = x.clone();
    { NoGradGuard g; x2.narrow(1, 4, 2).copy_(randn({2, 2, 6})); }
    CHECK(max_abs_diff(la(x2, x2, x2, Tensor(), true).narrow(1, 0, 4), y.narrow(1, 0, 4)) < 1e-6);
    // one token at a time
    nn::LinearAttention::State st;
    for (int64_t t = 0; t < 6; ++t) {
      Tensor xt = x.select(1, t);
      CHECK(max_abs_diff(la.step(st, xt, xt, xt), y.select(1, t)) < 1e-5);
    }
    CHECK(st.S.shape() == Shape{2, 3, 2, 2});
  }
}

TEST_CASE("the exp feature map stays finite where exp would overflow float32",
          "[nn][linear_attention]") {
  nn::LinearAttention la(opts(4, 1), nn::FeatureMap::Exp);
  Tensor x = randn({1, 5, 4}) * 200.0;  // projected features far above 88
  CHECK(std::isfinite(sum(la(x, x, x)).item<double>()));
  CHECK(std::isfinite(sum(la(x, x, x, Tensor(), true)).item<double>()));
  nn::LinearAttention::State st;
  for (int64_t t = 0; t < 5; ++t) {
    Tensor xt = x.select(1, t);
    CHECK(std::isfinite(sum(la.step(st, xt, xt, xt)).item<double>()));
  }
}

TEST_CASE("linear attention: a fully masked sequence gives 0, a full mask is refused",
          "[nn][linear_attention][mask]") {
  nn::LinearAttention la(opts(4, 2), nn::FeatureMap::EluPlusOne);
  Tensor x = randn({1, 3, 4});
  // fc_o(0) = fc_o's bias, which starts at 0
  CHECK(max_abs_diff(la(x, x, x, zeros({1, 3}, kBool)), zeros({1, 3, 4})) < 1e-7);
  CHECK(error_message([&] { la(x, x, x, ones({1, 3, 3}, kBool)); }) ==
        "LinearAttention: mask of shape [1, 3, 3] has no O(n) form; give a [B, Tk] key padding "
        "mask (or causal)");
}

TEST_CASE("linear attention passes gradcheck in both feature maps, causal or not, masked",
          "[nn][linear_attention][gradcheck]") {
  for (nn::FeatureMap fm : kMaps) {
    nn::LinearAttention la(opts(4, 2), fm);
    std::vector<Tensor> in = to_float64(la);
    in.insert(in.begin(), leaf64({2, 3, 4}));
    Tensor keep = tensor({{1, 0, 1}, {1, 1, 1}}, kBool);
    CHECK(gradcheck([&](const std::vector<Tensor>& x) { return la(x[0], x[0], x[0], keep); }, in));
    CHECK(gradcheck([&](const std::vector<Tensor>& x) { return la(x[0], x[0], x[0], Tensor(), true); },
                    in));
  }
}

TEST_CASE("causal exp linear attention: a huge future key changes no earlier output",
          "[nn][linear_attention][causal]") {
  // Identity projections, one head of width 2, so that a key is the token itself. Keys of
  // order 1, then k_t0 = [200, 0] at t0 = 4: with a shift taken over the whole sequence,
  // e^(k − 200) = 0 for every earlier key and outputs 0..3 became 0/0 -> 0.
  nn::LinearAttention la(opts(2, 1), nn::FeatureMap::Exp);
  for (auto* fc : {la.fc_q.get(), la.fc_k.get(), la.fc_v.get(), la.fc_o.get()})
    set_values(fc->weight, tensor({{1, 0}, {0, 1}}));
  manual_seed(21);
  const Tensor x = randn({2, 6, 2});
  const Tensor y = la(x, x, x, Tensor(), true);
  Tensor k = x.clone();
  { NoGradGuard g; k.narrow(1, 4, 1).select(2, 0).fill_(200.0); }
  const Tensor y2 = la(x, k, x, Tensor(), true);
  CHECK(max_abs_diff(y2.narrow(1, 0, 4), y.narrow(1, 0, 4)) < 1e-6);
  // and they equal the RNN form and the explicit kernel form on the same inputs
  nn::LinearAttention::State st;
  for (int64_t t = 0; t < 6; ++t)
    CHECK(max_abs_diff(la.step(st, x.select(1, t), k.select(1, t), x.select(1, t)), y2.select(1, t)) <
          1e-5);
  // (the unshifted kernel form overflows at k = 200: it is compared before the big key)
  CHECK(max_abs_diff(y2.narrow(1, 0, 4),
                     la.forward_naive(x, x, x, Tensor(), true).narrow(1, 0, 4)) < 1e-5);
  CHECK(std::isfinite(sum(y2).item<double>()));
}

TEST_CASE("the two causal forms, quadratic and prefix sums, agree and pass gradcheck",
          "[nn][linear_attention][causal]") {
  using nn::CausalForm;
  manual_seed(5);
  for (nn::FeatureMap fm : kMaps) {
    INFO((fm == nn::FeatureMap::Exp ? "exp" : "elu+1"));
    Tensor q = randn({2, 9, 8}) * 2.0, k = randn({2, 9, 8}) * 2.0, v = randn({2, 9, 8});
    const Tensor keep = tensor({{1, 1, 0, 1, 1, 1, 1, 0, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1}})
                            .unsqueeze(-1);  // [B, T, 1] key padding
    const auto form = [&](CausalForm f, const Tensor& kk) {
      return nn::linear_attention(q, kk, v, 2, fm, true, keep, f);
    };
    CHECK(max_abs_diff(form(CausalForm::Quadratic, k), form(CausalForm::PrefixSums, k)) < 1e-5);
    // Auto takes the quadratic form here (T = 9 <= d_k d_v = 16)
    CHECK(max_abs_diff(form(CausalForm::Auto, k), form(CausalForm::Quadratic, k)) == 0.0);
    // A huge later key changes no earlier output, in either form
    Tensor big = k.clone();
    { NoGradGuard g; big.narrow(1, 6, 1).select(2, 0).fill_(200.0); }
    for (CausalForm f : {CausalForm::Quadratic, CausalForm::PrefixSums}) {
      const Tensor y = form(f, big);
      CHECK(std::isfinite(sum(y).item<double>()));
      CHECK(max_abs_diff(y.narrow(1, 0, 6), form(f, k).narrow(1, 0, 6)) < 1e-5);
    }
    for (CausalForm f : {CausalForm::Quadratic, CausalForm::PrefixSums}) {
      std::vector<Tensor> in = {leaf64({2, 4, 4}), leaf64({2, 4, 4}), leaf64({2, 4, 4})};
      CHECK(gradcheck([&](const std::vector<Tensor>& x) {
        return nn::linear_attention(x[0], x[1], x[2], 2, fm, true, Tensor(), f);
      }, in));
    }
  }
}
