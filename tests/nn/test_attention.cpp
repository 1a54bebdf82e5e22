// nn/attention: the keep masks with scaled_dot_product_attention, MultiHeadAttention,
// ScaleNorm, the feed-forward and the positional encoding, as tonyduan/transformer-blocks
// defines them (src/blocks.py, src/models.py): masking, the permutation symmetries of
// multi-head attention, ScaleNorm's ‖y‖ = g.
#include <cmath>

#include "module64.h"
#include "nn/attention/feed_forward.h"
#include "nn/attention/multi_head_attention.h"
#include "nn/attention/positional_encoding.h"
#include "nn/attention/scale_norm.h"
#include "nn/attention/keep_mask.h"
#include "models/registry.h"

using namespace attic;
using namespace attic::testing;

namespace {

nn::AttentionOptions opts(int64_t d, int64_t heads, int64_t dk = 0) {
  nn::AttentionOptions o;
  o.dim_q = d;
  o.dim_k = o.dim_v = dk > 0 ? dk : d;
  o.num_heads = heads;
  return o;
}

}  // namespace

TEST_CASE("scaled dot-product attention by hand", "[nn][attention]") {
  // q = [1, 0], keys [1, 0] and [0, 1], scale 1: logits [1, 0],
  //   w = [e/(e+1), 1/(e+1)] = [0.731059, 0.268941]
  //   out = 0.731059 [1, 2] + 0.268941 [3, 4] = [1.537883, 2.537883]
  Tensor q = tensor({{{{1, 0}}}}), k = tensor({{{{1, 0}, {0, 1}}}}), v = tensor({{{{1, 2}, {3, 4}}}});
  Tensor w;
  Tensor out = scaled_dot_product_attention(q, k, v, {.scale = 1.0, .weights = &w});
  CHECK_THAT(values(w), ApproxValues({0.731059, 0.268941}, 1e-5));
  CHECK_THAT(values(out), ApproxValues({1.537883, 2.537883}, 1e-5));
  // keep = [0, 1]: all weight on key 2 -> out = v_2
  Tensor keep = nn::keep_mask_4d(tensor({{0, 1}}, kBool), 1, 1, 2, false, "test");
  CHECK_THAT(values(scaled_dot_product_attention(q, k, v, {.attn_mask = keep, .scale = 1.0})),
             ApproxValues({3, 4}));
}

TEST_CASE("a fully masked row gives the mean of V, and the causal mask hides later keys",
          "[nn][attention][mask]") {
  Tensor q = randn({2, 1, 3, 4}), k = randn({2, 1, 3, 4}), v = randn({2, 1, 3, 5});
  // batch item 0 keeps nothing, item 1 keeps everything
  Tensor keep = nn::keep_mask_4d(tensor({{0, 0, 0}, {1, 1, 1}}, kBool), 2, 3, 3, false, "t");
  Tensor out = scaled_dot_product_attention(
      q, k, v, {.attn_mask = keep, .scale = 0.5, .masked_logit = nn::kMaskedLogit});
  Tensor mean_v = mean(v.narrow(0, 0, 1), {2}, true).expand({1, 1, 3, 5});
  CHECK(max_abs_diff(out.narrow(0, 0, 1), mean_v) < 1e-6);
  // causal: query 0 sees only key 0, so its output is v_0 exactly
  Tensor c = scaled_dot_product_attention(q, k, v, {.is_causal = true, .scale = 0.5});
  CHECK(max_abs_diff(c.narrow(2, 0, 1), v.narrow(2, 0, 1)) < 1e-6);
}

TEST_CASE("MultiHeadAttention: shapes with separate widths, scale options, bad masks",
          "[nn][attention][mha]") {
  nn::AttentionOptions o = opts(6, 2, 5);
  o.dim_a = 8;
  o.dim_o = 4;
  nn::MultiHeadAttention mha(o);
  CHECK(mha.scale == Approx(1.0 / 2.0));  // 1/√(8/2)
  CHECK(mha.fc_q->weight.shape() == Shape{8, 6});
  CHECK(mha.fc_v->weight.shape() == Shape{4, 5});
  Tensor y = mha(randn({3, 7, 6}), randn({3, 2, 5}), randn({3, 2, 5}));
  CHECK(y.shape() == Shape{3, 7, 4});
  o.scale_by_total_width = true;
  CHECK(nn::MultiHeadAttention(o).scale == Approx(1.0 / std::sqrt(8.0)));
  CHECK(error_message([&] { mha(randn({3, 7, 6}), randn({3, 2, 5}), randn({3, 2, 5}), ones({3, 7}, kBool)); }) ==
        "MultiHeadAttention: mask of shape [3, 7] must be [B, Tk] = [3, 2] or [B, Tq, Tk] = [3, 7, 2]");
  // a 0/1 float mask would read as an additive bias in PyTorch: refused
  CHECK(error_message([&] { mha(randn({3, 7, 6}), randn({3, 2, 5}), randn({3, 2, 5}), ones({3, 2})); }) ==
        "MultiHeadAttention: mask must be bool (true = attend), got float32; make it with a "
        "comparison or .to(kBool)");
  CHECK(error_message([&] { nn::MultiHeadAttention(opts(6, 4)); }) ==
        "MultiHeadAttention: dim_a = 6 and dim_o = 6 must be multiples of num_heads = 4");
  CHECK(error_message([&] { models::find_attention("flash"); }) ==
        "attention must be softmax, linear_elu, linear_exp, elita, linformer, classic, reflex or route, got 'flash'");
}

TEST_CASE("attention names: one list, and each q, k, v attention reports its own name",
          "[nn][attention]") {
  CHECK(models::attention_names() == "softmax, linear_elu, linear_exp, elita, linformer, classic, reflex or route");
  for (const models::AttentionEntry& e : models::attention_registry()) {
    INFO(e.name);
    // ELiTA has no queries; a Linformer's E and F are tied to one sequence length n (its
    // own encoder-decoder is models/linformer/enc_dec.h); reflex and route read the
    // earlier blocks of a GPT, and classic is the reflex fork's name for the GPT's softmax:
    // all are the GPT's only.
    if (e.name == "elita" || e.name == "linformer" || e.name == "classic" || e.name == "reflex" ||
        e.name == "route") {
      CHECK_FALSE(e.make_attention);
      CHECK(error_message([&] { models::make_attention(e.name, opts(8, 2)); }) ==
            "attention " + e.name + " is a GPT attention only: it has no q, k, v form for the Transformer blocks");
      continue;
    }
    REQUIRE(e.make_attention);
    CHECK(models::make_attention(e.name, opts(8, 2))->name() == e.name);
  }
}

TEST_CASE("MultiHeadAttention: causal without a mask is the fused kernel, with one the composed ops",
          "[nn][attention][mha]") {
  manual_seed(17);
  nn::MultiHeadAttention mha(opts(8, 2));
  mha.record_weights = true;
  const Tensor x = randn({2, 5, 8});
  const Tensor fused = mha(x, x, x, Tensor(), true);
  const Tensor w_fused = mha.last_weights;
  // an all-ones keep mask drops nothing, but sends the call down the composed path
  const Tensor composed = mha(x, x, x, ones({2, 5}, kBool), true);
  CHECK(max_abs_diff(fused, composed) < 1e-6);
  CHECK(max_abs_diff(w_fused, mha.last_weights) < 1e-6);
  CHECK(values(w_fused.select(2, 0).narrow(2, 1, 4)) == std::vector<double>(2 * 2 * 4, 0.0));
}

TEST_CASE("MultiHeadAttention is equivariant to query permutations and invariant to key-value permutations",
          "[nn][attention][mha][permutation]") {
  nn::MultiHeadAttention mha(opts(8, 2));
  Tensor q = randn({2, 5, 8}), kv = randn({2, 6, 8});
  Tensor y = mha(q, kv, kv);
  const std::vector<int64_t> pq = {3, 0, 4, 1, 2}, pk = {5, 2, 0, 1, 4, 3};
  CHECK(max_abs_diff(mha(permute_rows(q, pq), kv, kv), permute_rows(y, pq)) < 1e-5);
  Tensor kvp = permute_rows(kv, pk);
  CHECK(max_abs_diff(mha(q, kvp, kvp), y) < 1e-5);
}

TEST_CASE("MultiHeadAttention: changing masked keys changes nothing", "[nn][attention][mask]") {
  nn::MultiHeadAttention mha(opts(4, 2));
  Tensor q = randn({2, 3, 4}), kv = randn({2, 5, 4});
  Tensor keep = tensor({{1, 1, 0, 1, 0}, {0, 1, 1, 1, 1}}, kBool);
  Tensor y = mha(q, kv, kv, keep);
  // overwrite every masked key/value row with noise
  Tensor noise = randn({2, 5, 4}) * 10.0;
  Tensor kv2 = where(logical_not(keep).unsqueeze(-1), noise, kv);
  CHECK(max_abs_diff(mha(q, kv2, kv2, keep), y) < 1e-5);
  // a full [B, Tq, Tk] mask that equals the padding mask gives the same output
  CHECK(max_abs_diff(mha(q, kv, kv, keep.unsqueeze(1).expand({2, 3, 5})), y) < 1e-6);
}

TEST_CASE("MultiHeadAttention passes gradcheck, with masks and causal", "[nn][attention][gradcheck]") {
  nn::MultiHeadAttention mha(opts(4, 2));
  std::vector<Tensor> params = to_float64(mha);
  Tensor keep = tensor({{1, 0, 1}, {1, 1, 0}}, kBool);
  std::vector<Tensor> in = {leaf64({2, 3, 4}), leaf64({2, 3, 4})};
  in.insert(in.end(), params.begin(), params.end());
  CHECK(gradcheck([&](const std::vector<Tensor>& x) { return mha(x[0], x[1], x[1], keep); }, in));
  CHECK(gradcheck([&](const std::vector<Tensor>& x) { return mha(x[0], x[0], x[0], Tensor(), true); },
                  {leaf64({2, 3, 4})}));
}

TEST_CASE("ScaleNorm: every row has norm g, g starts at sqrt(dim)", "[nn][scale_norm]") {
  nn::ScaleNorm sn(4);
  CHECK(sn.g.item<double>() == Approx(2.0));
  // x = [3, 4, 0, 0]: ‖x‖ = 5, y = 2 x / 5 = [1.2, 1.6, 0, 0]
  CHECK_THAT(values(sn(tensor({{3, 4, 0, 0}}))), ApproxValues({1.2, 1.6, 0, 0}));
  Tensor y = sn(randn({5, 4}) * 7.0);
  CHECK_THAT(values(sqrt(sum(y * y, {-1}))), ApproxValues(std::vector<double>(5, 2.0), 1e-5));
  // the zero row stays zero, with a finite gradient
  nn::ScaleNorm sn64(3);
  std::vector<Tensor> g = to_float64(sn64);
  CHECK(gradcheck([&](const std::vector<Tensor>& x) { return sn64(x[0]); }, {leaf64({2, 3}), g[0]}));
  Tensor z = zeros({1, 3}, kFloat64).requires_grad_();
  sum(sn64(z)).backward();
  CHECK(std::isfinite(sum(z.grad()).item<double>()));
}

TEST_CASE("FeedForward is fc2(relu(fc1(x))) and passes gradcheck", "[nn][feed_forward]") {
  nn::FeedForward ffn(3, 5);
  Tensor x = randn({2, 3});
  CHECK(max_abs_diff(ffn(x), ffn.fc2->forward(relu(ffn.fc1->forward(x)))) < 1e-7);
  std::vector<Tensor> p = to_float64(ffn);
  std::vector<Tensor> in = {leaf64({2, 3})};
  in.insert(in.end(), p.begin(), p.end());
  CHECK(gradcheck([&](const std::vector<Tensor>& v) { return ffn(v[0]); }, in));
}

TEST_CASE("PositionalEncoding: sin at even columns, cos at odd, wavelengths 2pi to max_length",
          "[nn][positional_encoding]") {
  // dim 4, max_length 63: base = 63/2π = 10.0268, ω_0 = 1, ω_2 = base^(−2/4) = 0.315806
  //   t = 0: [sin 0, cos 0, sin 0, cos 0] = [0, 1, 0, 1]
  //   t = 1: [sin 1, cos 1, sin ω_2, cos ω_2]
  nn::PositionalEncoding pe(4, 63);
  const double w2 = std::pow(63.0 / (2 * M_PI), -0.5);
  Tensor y = pe(zeros({1, 2, 4}));
  CHECK_THAT(values(y.select(1, 1)),
             ApproxValues({std::sin(1.0), std::cos(1.0), std::sin(w2), std::cos(w2)}, 1e-6));
  CHECK_THAT(values(y.select(1, 0)), ApproxValues({0, 1, 0, 1}));
  CHECK(std::abs(w2 - 0.315806) < 1e-5);
  CHECK(error_message([&] { pe(zeros({1, 64, 4})); }) ==
        "PositionalEncoding: input of shape [1, 64, 4] must be [B, T <= 63, 4]");
}
