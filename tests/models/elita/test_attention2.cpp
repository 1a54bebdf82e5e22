// ELiTA's Attention2 (models/elita/attention2.h): positions and parts worked out by hand;
// the prefix-sum form against the explicit O(N²) softmax; causality at a fixed N; rows that
// are convex combinations; invariance to a shift shared by d and r; clip against stable;
// finite, exact outputs at logits of ±1000; gradcheck in both numerics and both position
// modes; step() equal to forward() under absolute positions.
#include <cmath>

#include "helpers.h"
#include "models/elita.h"
#include "nn/safetensors.h"

using namespace attic;
using namespace attic::models::elita;
using attic::testing::ApproxValues;
using attic::testing::error_message;
using attic::testing::values;

namespace {

double max_abs_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

Attention2Options small(Numerics n, Positions p) {
  Attention2Options o;
  o.width = 6;
  o.heads = 2;
  o.att_w = 3;
  o.pos_w = 4;
  o.numerics = n;
  o.positions = p;
  o.block_size = 12;
  return o;
}

// The module's parameters as float64 leaves, put in place of its own.
std::vector<Tensor> use_float64(Attention2& a) {
  std::vector<Tensor*> fields = {&a.k1, &a.k2, &a.k3, &a.a1, &a.a2, &a.b1, &a.b2, &a.c,
                                 &a.value_weight, &a.output_weight};
  std::vector<Tensor> leaves;
  for (Tensor* f : fields) {
    *f = f->detach().to(kFloat64).requires_grad_();
    leaves.push_back(*f);
  }
  return leaves;
}

void set_fields(Attention2& a, const std::vector<Tensor>& p) {
  std::vector<Tensor*> fields = {&a.k1, &a.k2, &a.k3, &a.a1, &a.a2, &a.b1, &a.b2, &a.c,
                                 &a.value_weight, &a.output_weight};
  for (size_t i = 0; i < fields.size(); ++i) *fields[i] = p[i];
}

}  // namespace

TEST_CASE("positions: i/(N−1) relative, i/(block_size−1) absolute, by hand", "[elita]") {
  CHECK_THAT(values(positions(5, Positions::Relative, 99)), ApproxValues({0, 0.25, 0.5, 0.75, 1}));
  CHECK_THAT(values(positions(1, Positions::Relative, 99)), ApproxValues({0}));
  CHECK_THAT(values(positions(3, Positions::Absolute, 9, 2)), ApproxValues({0.25, 0.375, 0.5}));
  CHECK_THAT(values(positions(2, Positions::Absolute, 1)), ApproxValues({0, 0}));
}

TEST_CASE("the parts s, d, r and v, worked out by hand", "[elita]") {
  Attention2Options o = small(Numerics::Stable, Positions::Relative);
  o.width = 2, o.heads = 1, o.att_w = 1, o.pos_w = 2;
  Attention2 a(o);
  a.k1 = from_vector<float>({1, 2}, {1, 2});
  a.k2 = from_vector<float>({0, -1}, {1, 2});
  a.k3 = from_vector<float>({3, 0}, {1, 2});
  a.a1 = from_vector<float>({1, 2}, {1, 2, 1});
  a.b1 = from_vector<float>({0, 0.5}, {1, 2, 1});
  a.a2 = from_vector<float>({-1, 0}, {1, 2, 1});
  a.b2 = from_vector<float>({0.25, 1}, {1, 2, 1});
  a.c = from_vector<float>({2, -1}, {1, 2, 1});
  a.value_weight = from_vector<float>({1, -1}, {1, 2, 1});
  const Tensor x = from_vector<float>({0.5, -1, 2, 1, 0, 0}, {1, 3, 2});  // N = 3: t = 0, ½, 1
  const Attention2::Parts p = a.parts(x, positions(3, Positions::Relative, 0));
  auto pi = [](double a0, double a1, double b0, double b1, double t) {
    return 2 * std::sin(a0 * t + b0) - 1 * std::sin(a1 * t + b1);  // c = (2, −1)
  };
  const double t[3] = {0, 0.5, 1}, x0[3] = {0.5, 2, 0}, x1[3] = {-1, 1, 0};
  std::vector<double> s, d, r, v;
  for (int i = 0; i < 3; ++i) {
    s.push_back(x0[i] + 2 * x1[i] + pi(1, 2, 0, 0.5, t[i]));
    d.push_back(-x1[i]);
    r.push_back(pi(-1, 0, 0.25, 1, t[i]) + 3 * x0[i]);
    v.push_back(x0[i] - x1[i]);
  }
  CHECK_THAT(values(p.s), ApproxValues(s));
  CHECK_THAT(values(p.d), ApproxValues(d));
  CHECK_THAT(values(p.r), ApproxValues(r));
  CHECK_THAT(values(p.v), ApproxValues(v));
}

TEST_CASE("the prefix-sum form equals the explicit O(N²) softmax over {d_i} ∪ {r_i + s_j}",
          "[elita]") {
  const Numerics n = GENERATE(Numerics::Stable, Numerics::Clip);
  const Positions pos = GENERATE(Positions::Relative, Positions::Absolute);
  INFO(to_string(n) << ", " << to_string(pos));
  manual_seed(7);
  Attention2 a(small(n, pos));
  for (int64_t N : {1, 2, 7, 12}) {
    const Tensor x = randn({3, N, 6});
    INFO("N = " << N);
    CHECK(max_abs_diff(a.forward(x), a.forward_explicit(x)) < 1e-5);
  }
  // Inside [−20, 20] the clip changes nothing: both numerics give the same outputs.
  Attention2Options other = small(n == Numerics::Clip ? Numerics::Stable : Numerics::Clip, pos);
  Attention2 b(other);
  b.load_state_dict(a.state_dict());
  const Tensor x = randn({2, 9, 6});
  CHECK(max_abs_diff(a.forward(x), b.forward(x)) < 1e-6);
}

TEST_CASE("causal at a fixed N: a later token, however large, leaves earlier rows bit-identical",
          "[elita]") {
  const Numerics n = GENERATE(Numerics::Stable, Numerics::Clip);
  const Positions pos = GENERATE(Positions::Relative, Positions::Absolute);
  INFO(to_string(n) << ", " << to_string(pos));
  manual_seed(3);
  Attention2 a(small(n, pos));
  // large keys, so that the running maximum matters
  a.k1 = a.k1 * 200.0;
  const Tensor x = randn({2, 10, 6});
  const Tensor y = a.forward(x);
  for (int64_t i : {0, 4, 8}) {
    Tensor changed = x.clone();
    changed.narrow(1, i + 1, 10 - i - 1).fill_(50.0);
    const Tensor y2 = a.forward(changed);
    INFO("rows 0.." << i);
    CHECK(max_abs_diff(y.narrow(1, 0, i + 1), y2.narrow(1, 0, i + 1)) == 0.0);
  }
}

TEST_CASE("each row is a convex combination: equal values come back exactly, weights sum to 1",
          "[elita]") {
  const Numerics n = GENERATE(Numerics::Stable, Numerics::Clip);
  manual_seed(5);
  const Tensor s = randn({2, 3, 8}) * 5.0, d = randn({2, 3, 8}) * 5.0, r = randn({2, 3, 8}) * 5.0;
  const Tensor u = randn({1, 3, 1, 4});
  const Tensor v = u.expand({2, 3, 8, 4}).contiguous();  // every v_j = u (per head)
  CHECK(max_abs_diff(prefix_softmax(s, d, r, v, n), v) < 1e-6);
  // With v = 1 the output is the sum of the row's weights.
  const Tensor one = ones({2, 3, 8, 1});
  CHECK(max_abs_diff(prefix_softmax(s, d, r, one, n), one) < 1e-6);
}

TEST_CASE("adding one constant to d_i and r_i leaves y unchanged", "[elita]") {
  manual_seed(9);
  const Tensor s = randn({2, 2, 9}), d = randn({2, 2, 9}), r = randn({2, 2, 9});
  const Tensor v = randn({2, 2, 9, 3});
  const Numerics n = GENERATE(Numerics::Stable, Numerics::Clip);
  const Tensor y = prefix_softmax(s, d, r, v, n);
  // a shift per row i, the same for d_i and r_i
  const Tensor c = randn({2, 2, 9}) * 3.0;
  CHECK(max_abs_diff(prefix_softmax(s, d + c, r + c, v, n), y) < 1e-5);
}

TEST_CASE("stable at logits of ±1000: finite, and equal to a float64 softmax reference", "[elita]") {
  // PyTorch wrote the reference with the explicit softmax in float64
  // (bench/peer/make_elita_fixture.py).
  const nn::SafetensorsFile f =
      nn::load_safetensors(std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/elita_tiny.safetensors");
  Attention2Options o;
  o.width = 8, o.heads = 2, o.att_w = 4, o.pos_w = 3, o.block_size = 50;
  Attention2 a(o);
  nn::StateDict sd;
  for (const auto& [k, t] : f.tensors)
    if (k.rfind("stable_big.param.", 0) == 0) sd[k.substr(17)] = t;
  a.load_state_dict(sd);
  const Tensor x = f.tensors.at("stable_big.x");
  const Attention2::Parts p = a.parts(x, positions(50, Positions::Relative, 50));
  REQUIRE(max(abs(p.d)).item<double>() > 900);  // the logits are that large
  const Tensor y = a.forward(x);
  CHECK(max(abs(y)).item<double>() < 1e30);
  CHECK(sum(ne(y, y)).item<double>() == 0);  // no NaN
  CHECK(max_abs_diff(y, f.tensors.at("stable_big.out")) < 1e-4);
  // attic's own explicit softmax in float64 agrees with the float32 prefix sums
  const Tensor y64 = explicit_softmax(p.s.to(kFloat64), p.d.to(kFloat64), p.r.to(kFloat64),
                                      p.v.to(kFloat64), Numerics::Stable);
  CHECK(max_abs_diff(prefix_softmax(p.s, p.d, p.r, p.v, Numerics::Stable).to(kFloat64), y64) < 1e-5);
  // The clipped original gives finite numbers here too, but other ones.
  const Tensor clipped = prefix_softmax(p.s, p.d, p.r, p.v, Numerics::Clip);
  CHECK(sum(ne(clipped, clipped)).item<double>() == 0);
  CHECK(max_abs_diff(clipped.to(kFloat64), y64) > 1e-2);
}

TEST_CASE("clip: a part beyond ±20 gets no gradient, stable passes it on", "[elita]") {
  // one head, N = 3, A = 1; s_1 = 30 is clipped
  const Tensor s = from_vector<double>({0.5, 30, -1}, {1, 1, 3}).requires_grad_();
  const Tensor d = from_vector<double>({0.1, 0.2, 0.3}, {1, 1, 3});
  const Tensor r = from_vector<double>({0, 0, 0}, {1, 1, 3});
  const Tensor v = from_vector<double>({1, 2, 3}, {1, 1, 3, 1});
  sum(prefix_softmax(s, d, r, v, Numerics::Clip)).backward();
  CHECK(s.grad().to_vector<double>()[1] == 0.0);
  CHECK(s.grad().to_vector<double>()[0] != 0.0);
  const Tensor s2 = s.detach().requires_grad_();
  sum(prefix_softmax(s2, d, r, v, Numerics::Stable)).backward();
  CHECK(s2.grad().to_vector<double>()[1] != 0.0);
}

TEST_CASE("gradcheck of Attention2 in both numerics and both position modes", "[elita][gradcheck]") {
  const Numerics n = GENERATE(Numerics::Stable, Numerics::Clip);
  const Positions pos = GENERATE(Positions::Relative, Positions::Absolute);
  INFO(to_string(n) << ", " << to_string(pos));
  manual_seed(11);
  Attention2Options o = small(n, pos);
  o.width = 4, o.heads = 2, o.att_w = 2, o.pos_w = 2;
  Attention2 a(o);
  // keys large enough that the running maximum moves and, under clip, some parts pass ±20
  a.k1 = a.k1 * 100.0;
  a.k3 = a.k3 * 100.0;
  std::vector<Tensor> inputs = use_float64(a);
  inputs.push_back(randn({2, 5, 4}, kFloat64).requires_grad_());
  CHECK(attic::testing::gradcheck(
      [&](const std::vector<Tensor>& in) {
        set_fields(a, in);
        return a.forward(in.back());
      },
      inputs));
}

TEST_CASE("relative positions: outputs depend on N as the original, absolute ones do not",
          "[elita]") {
  manual_seed(13);
  const Tensor x = randn({1, 10, 6});
  Attention2 rel(small(Numerics::Stable, Positions::Relative));
  // the first 6 outputs of a length-10 input are not those of the length-6 prefix
  CHECK(max_abs_diff(rel.forward(x).narrow(1, 0, 6), rel.forward(x.narrow(1, 0, 6))) > 1e-4);
  Attention2 abs_(small(Numerics::Stable, Positions::Absolute));
  CHECK(max_abs_diff(abs_.forward(x).narrow(1, 0, 6), abs_.forward(x.narrow(1, 0, 6))) < 1e-6);
  CHECK(rel.start_decoding() == nullptr);
  CHECK(abs_.start_decoding() != nullptr);
}

TEST_CASE("absolute positions: step() token by token equals forward()", "[elita]") {
  const Numerics n = GENERATE(Numerics::Stable, Numerics::Clip);
  INFO(to_string(n));
  manual_seed(17);
  Attention2 a(small(n, Positions::Absolute));
  a.k1 = a.k1 * 100.0;  // a moving running maximum, and clipped parts under clip
  const Tensor x = randn({2, 12, 6});
  const Tensor y = a.forward(x);
  auto state = a.start_decoding();
  std::vector<Tensor> rows;
  rows.push_back(a.step(*state, x.narrow(1, 0, 5), {}));  // a prompt of 5
  for (int64_t i = 5; i < 12; ++i) rows.push_back(a.step(*state, x.narrow(1, i, 1), {}));
  CHECK(state->length == 12);
  CHECK(max_abs_diff(cat(rows, 1), y) < 1e-5);
}

TEST_CASE("Attention2: bad sizes and options are clear errors", "[elita][errors]") {
  Attention2Options o = small(Numerics::Stable, Positions::Absolute);
  o.block_size = 0;
  CHECK(error_message([&] { Attention2 a(o); }) ==
        "Attention2: absolute positions need block_size > 0, got 0");
  o = small(Numerics::Stable, Positions::Relative);
  o.att_w = 0;
  CHECK(error_message([&] { Attention2 a(o); }) ==
        "Attention2: width, heads, att_w and pos_w must be positive, got 6, 2, 0, 4");
  Attention2 a(small(Numerics::Stable, Positions::Relative));
  CHECK(error_message([&] { a.forward(zeros({2, 3, 5})); }) ==
        "Attention2: x must be [B, N, 6] with N >= 1, got [2, 3, 5]");
  Attention2 absolute(small(Numerics::Stable, Positions::Absolute));  // block_size 12
  CHECK(error_message([&] { absolute.forward(zeros({1, 13, 6})); }) ==
        "Attention2: absolute positions end at block_size 12, got positions up to 13");
  auto state = absolute.start_decoding();
  absolute.step(*state, zeros({2, 10, 6}), {});
  CHECK(error_message([&] { absolute.step(*state, zeros({2, 3, 6}), {}); }) ==
        "Attention2: absolute positions end at block_size 12, got positions up to 13");
  CHECK(error_message([&] { absolute.step(*state, zeros({1, 1, 6}), {}); }) ==
        "Attention2::step: the state holds 2 sequences, x has 1");
  nn::MixerState other;
  CHECK(error_message([&] { absolute.step(other, zeros({1, 1, 6}), {}); }) ==
        "Attention2::step: the state is not one Attention2::start_decoding made");
  CHECK(error_message([] {
          prefix_softmax(zeros({1, 2, 5}), zeros({1, 2, 5}), zeros({1, 2, 4}), zeros({1, 2, 5, 3}),
                         Numerics::Stable);
        }) == "prefix_softmax: s, d, r must be [B, H, N] and v [B, H, N, A], got [1, 2, 5], "
              "[1, 2, 5], [1, 2, 4] and [1, 2, 5, 3]");
  CHECK(error_message([] { parse_numerics("exact"); }) ==
        "elita numerics must be stable or clip, got 'exact'");
  CHECK(error_message([] { parse_positions("rope"); }) ==
        "elita positions must be relative or absolute, got 'rope'");
}

TEST_CASE("Attention2's parameters: the original's Keras names, shapes and init ranges", "[elita]") {
  Attention2Options o = small(Numerics::Stable, Positions::Relative);
  o.width = 40, o.heads = 3, o.att_w = 8, o.pos_w = 5;
  Attention2 a(o);
  std::vector<std::pair<std::string, Shape>> want = {
      {"k1", {3, 40}}, {"k2", {3, 40}}, {"k3", {3, 40}}, {"a1", {3, 5, 1}}, {"a2", {3, 5, 1}},
      {"b1", {3, 5, 1}}, {"b2", {3, 5, 1}}, {"c", {3, 5, 1}}, {"value_weight", {3, 40, 8}},
      {"output_weight", {3, 40, 8}}};
  const nn::NamedTensors got = a.named_parameters();
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    CHECK(got[i].first == want[i].first);
    CHECK(got[i].second.shape() == want[i].second);
    const double bound = i < 8 ? 0.05 : std::sqrt(6.0 / (3 * (40 + 8)));  // U(±0.05), Keras glorot
    CHECK(max(abs(got[i].second)).item<double>() <= bound);
    CHECK(max(abs(got[i].second)).item<double>() > 0.8 * bound);
  }
}
