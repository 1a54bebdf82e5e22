// Reflex and route attention (models/reflex/): classic is nanoGPT's GPT bit for bit; blocks 0
// and 1 are classic in every mode and their routers get no gradient; reflex heads read only
// their own group's source; route with one-hot routers on the current stream is classic;
// every mode is causal; gradcheck; cached generation equals recomputing; bad options.
#include "helpers.h"
#include "models/gpt.h"
#include "models/reflex.h"
#include "nn/module64.h"
#include "optim/decay_groups.h"

using namespace attic;
using models::GPT;
using models::GPTConfig;
using models::reflex::ReflexAttention;
using models::reflex::RouteAttention;
using testing::error_message;
using testing::max_abs_diff;

namespace {

GPTConfig small(const std::string& attention, const std::string& options = "") {
  GPTConfig c;
  c.block_size = 10;
  c.vocab_size = 13;
  c.n_layer = 4;
  c.n_head = 6;
  c.n_embd = 24;
  c.bias = true;
  c.attention = attention;
  c.attention_options = options;
  return c;
}

Tensor tokens(int64_t B, int64_t T, uint64_t seed) {
  Generator g(seed);
  std::vector<int64_t> v;
  for (int64_t i = 0; i < B * T; ++i) v.push_back(g.randint(0, 13));
  return from_vector(v, {B, T});
}

nn::MixerOptions mixer(int64_t layer, const std::string& args = "") {
  nn::MixerOptions o;
  o.n_embd = 24;
  o.n_head = 6;
  o.block_size = 10;
  o.n_layer = 4;
  o.layer = layer;
  o.args = nn::AttentionArgs::parse(args);
  return o;
}

}  // namespace

TEST_CASE("attention=classic is nanoGPT's GPT: same parameters and logits, bit for bit", "[reflex]") {
  manual_seed(7);
  GPT a(small("softmax"));
  manual_seed(7);
  GPT b(small("classic"));
  const nn::StateDict sa = a.state_dict(), sb = b.state_dict();
  REQUIRE(sa.size() == sb.size());
  for (const auto& [k, t] : sa) {
    INFO(k);
    REQUIRE(sb.count(k) == 1);
    CHECK(max_abs_diff(t, sb.at(k)) == 0.0);
  }
  const Tensor idx = tokens(2, 10, 1);
  CHECK(max_abs_diff(a.forward(idx, idx).logits, b.forward(idx, idx).logits) == 0.0);
}

TEST_CASE("route holds k_router and v_router [3·NH] in every block, at 1/(3·NH), without weight decay",
          "[reflex]") {
  GPT m(small("route"));
  const nn::StateDict sd = m.state_dict();
  for (int i = 0; i < 4; ++i)
    for (const char* r : {"k_router", "v_router"}) {
      const std::string name = "transformer.h." + std::to_string(i) + ".attn." + r;
      INFO(name);
      REQUIRE(sd.count(name) == 1);
      CHECK(sd.at(name).shape() == Shape{18});
      CHECK(max(abs(sd.at(name) - 1.0 / 18)).item<double>() < 1e-9);
    }
  const optim::DecayGroups g = optim::decay_groups(m);
  int routers = 0;
  for (const auto& [name, p] : g.no_decay) routers += name.find("_router") != std::string::npos;
  for (const auto& [name, p] : g.decay) CHECK(name.find("_router") == std::string::npos);
  CHECK(routers == 8);
  // Same seed, same nanoGPT weights: the routers draw nothing from the generator.
  manual_seed(3);
  GPT classic(small("classic"));
  manual_seed(3);
  GPT route(small("route"));
  for (const auto& [k, t] : classic.state_dict()) CHECK(max_abs_diff(t, route.state_dict().at(k)) == 0.0);
}

TEST_CASE("blocks 0 and 1 are classic in every mode, and their routers get no gradient", "[reflex]") {
  const std::string mode = GENERATE(as<std::string>{}, "reflex", "route");
  INFO(mode);
  manual_seed(11);
  GPT classic(small("classic"));
  manual_seed(11);
  GPT m(small(mode));
  const Tensor idx = tokens(2, 10, 2);
  const std::vector<Tensor> a = classic.block_outputs(idx), b = m.block_outputs(idx);
  CHECK(max_abs_diff(a[0], b[0]) == 0.0);
  CHECK(max_abs_diff(a[1], b[1]) == 0.0);
  CHECK(max_abs_diff(a[2], b[2]) > 1e-6);  // block 2 reads earlier layers
  m.forward(idx, idx).loss.backward();
  if (mode == "route") {
    for (int i = 0; i < 4; ++i) {
      auto r = m.h->at<models::Block>(i)->attn_as<RouteAttention>();
      INFO("block " << i);
      for (const Tensor& p : {r->k_router, r->v_router}) {
        if (i < 2) CHECK((!p.grad().defined() || max(abs(p.grad())).item<double>() == 0.0));
        else CHECK((p.grad().defined() && max(abs(p.grad())).item<double>() > 0.0));
      }
    }
  }
}

TEST_CASE("reflex head isolation: x_{i-1} reaches only heads 2-3, x_{i-2} only heads 4-5", "[reflex]") {
  const std::string split = GENERATE(as<std::string>{}, "", "sa_heads=1,prev1_heads=3");
  INFO(split);
  // With the split 1/3/2 the groups are heads 0, 1-3 and 4-5.
  const int64_t sa = split.empty() ? 2 : 1, p1 = split.empty() ? 2 : 3, hs = 4;
  manual_seed(2);
  ReflexAttention attn(mixer(2, split));
  {
    // c_proj = identity: the output is the heads side by side, before any mixing.
    NoGradGuard no_grad;
    std::vector<float> eye(24 * 24, 0.0f);
    for (int i = 0; i < 24; ++i) eye[size_t(i * 25)] = 1.0f;
    attn.c_proj->weight.copy_(from_vector(eye, {24, 24}));
    attn.c_proj->bias.fill_(0.0);
  }
  const Tensor x = randn({2, 7, 24}), x0 = randn({2, 7, 24}), x1 = randn({2, 7, 24});
  auto run = [&](const Tensor& e0, const Tensor& e1) {
    const std::vector<Tensor> earlier{e0, e1};  // x_{i-2}, x_{i-1} for block 2
    return attn.forward(x, {.layer = 2, .earlier = earlier});
  };
  const Tensor base = run(x0, x1);
  // Columns of heads [from, to) moved; every other column is bit-identical.
  auto moved_heads = [&](const Tensor& y) {
    std::vector<int64_t> moved;
    for (int64_t h = 0; h < 6; ++h)
      if (max(abs(y.narrow(2, h * hs, hs) - base.narrow(2, h * hs, hs))).item<double>() > 0) moved.push_back(h);
    return moved;
  };
  std::vector<int64_t> prev1, prev2;
  for (int64_t h = sa; h < sa + p1; ++h) prev1.push_back(h);
  for (int64_t h = sa + p1; h < 6; ++h) prev2.push_back(h);
  CHECK(moved_heads(run(x0, x1 + randn({2, 7, 24}))) == prev1);
  CHECK(moved_heads(run(x0 + randn({2, 7, 24}), x1)) == prev2);
}

TEST_CASE("route with one-hot routers on the current stream equals classic", "[reflex]") {
  manual_seed(5);
  GPT classic(small("classic"));
  manual_seed(5);
  GPT route(small("route"));
  {
    NoGradGuard no_grad;
    for (size_t i = 0; i < route.h->size(); ++i) {
      auto r = route.h->at<models::Block>(i)->attn_as<RouteAttention>();
      for (Tensor& p : {std::ref(r->k_router), std::ref(r->v_router)}) {
        p.fill_(0.0);
        p.narrow(0, 12, 6).fill_(1.0);  // l = 2: ln_1(x_i)
      }
    }
  }
  const Tensor idx = tokens(2, 10, 3);
  const Tensor a = classic.forward(idx, idx).logits, b = route.forward(idx, idx).logits;
  CHECK(max_abs_diff(a, b) < 1e-6);
  // With the init 1/(3·NH) it is not classic.
  GPT fresh(small("route"));
  fresh.load_state_dict(classic.state_dict(), /*strict=*/false);
  CHECK(max_abs_diff(a, fresh.forward(idx, idx).logits) > 1e-4);
}

TEST_CASE("every mode is causal: later tokens never move earlier logits", "[reflex]") {
  const std::string mode = GENERATE(as<std::string>{}, "classic", "reflex", "route");
  const std::string opts = GENERATE(as<std::string>{}, "", "norm_prev=true");
  if (mode == "classic" && !opts.empty()) return;
  INFO(mode << " " << opts);
  GPT m(small(mode, opts));
  const Tensor idx = tokens(2, 10, 4);
  std::vector<int64_t> v = idx.to_vector<int64_t>();
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t t = 6; t < 10; ++t) v[size_t(b * 10 + t)] = (v[size_t(b * 10 + t)] + 5) % 13;
  const Tensor changed = from_vector(v, {2, 10});
  const Tensor a = m.forward(idx, idx).logits, b = m.forward(changed, idx).logits;
  CHECK(max_abs_diff(a.narrow(1, 0, 6), b.narrow(1, 0, 6)) == 0.0);
  CHECK(max_abs_diff(a.narrow(1, 6, 4), b.narrow(1, 6, 4)) > 1e-6);
}

TEST_CASE("gradcheck: reflex and route attention through x, both earlier states and every parameter",
          "[reflex][gradcheck]") {
  const std::string mode = GENERATE(as<std::string>{}, "reflex", "route");
  const bool norm_prev = GENERATE(false, true);
  INFO(mode << " norm_prev " << norm_prev);
  manual_seed(9);
  nn::MixerOptions o = mixer(2, norm_prev ? "norm_prev=true" : "");
  o.n_embd = 12;  // 6 heads of 2
  std::shared_ptr<nn::CausalSelfAttention> attn;
  if (mode == "reflex") attn = std::make_shared<ReflexAttention>(o);
  else attn = std::make_shared<RouteAttention>(o);
  nn::LayerNorm ln(12);
  std::vector<Tensor> leaves = testing::to_float64(*attn);
  std::vector<Tensor> ln_params = testing::to_float64(ln);
  if (mode == "route") {
    auto r = std::dynamic_pointer_cast<RouteAttention>(attn);
    NoGradGuard no_grad;
    r->k_router.copy_(randn({18}, kFloat64));
    r->v_router.copy_(randn({18}, kFloat64));
  }
  Tensor x = randn({2, 4, 12}, kFloat64).requires_grad_(), x0 = randn({2, 4, 12}, kFloat64).requires_grad_(),
         x1 = randn({2, 4, 12}, kFloat64).requires_grad_();
  leaves.insert(leaves.end(), {x, x0, x1});
  if (norm_prev) leaves.insert(leaves.end(), ln_params.begin(), ln_params.end());
  CHECK(testing::gradcheck(
      [&](const std::vector<Tensor>&) {
        const std::vector<Tensor> earlier{x0, x1};
        return attn->forward(x, {.layer = 2, .earlier = earlier, .pre_norm = &ln});
      },
      leaves));
}

TEST_CASE("reflex and route generate with a KV cache exactly as by recomputing", "[reflex]") {
  const std::string mode = GENERATE(as<std::string>{}, "reflex", "route");
  INFO(mode);
  manual_seed(13);
  GPT m(small(mode, "norm_prev=true"));
  m.eval();
  const Tensor idx = tokens(2, 10, 5);
  std::optional<GPT::DecodeState> state = m.start_decoding();
  REQUIRE(state.has_value());
  NoGradGuard no_grad;
  // Three tokens at once, then one at a time: each step's logits are forward()'s.
  for (int64_t t = 0, step = 3; t < 10; t += step, step = 1) {
    const Tensor got = m.step(*state, idx.narrow(1, t, step));
    const Tensor want = m.forward(idx.narrow(1, 0, t + step)).logits;
    CHECK(max_abs_diff(got, want) < 1e-5);
  }
  Generator g1(3), g2(3);
  const Tensor start = idx.narrow(1, 0, 2);
  CHECK(max_abs_diff(m.generate(start, 8, 1.0, 0, &g1, true), m.generate(start, 8, 1.0, 0, &g2, false)) == 0.0);
}

TEST_CASE("reflex and route refuse bad options and missing earlier states", "[reflex]") {
  CHECK(error_message([] { ReflexAttention a(mixer(2, "sa_heads=4,prev1_heads=3")); }) ==
        "attention reflex: sa_heads 4 and prev1_heads 3 must be >= 0 and sum to at most n_head 6");
  CHECK(error_message([] { ReflexAttention a(mixer(2, "sa_heads=-1")); }).find("must be >= 0") != std::string::npos);
  // A sum past int64 is refused as too many heads, not wrapped into range.
  CHECK(error_message([] { ReflexAttention a(mixer(2, "sa_heads=1,prev1_heads=9223372036854775807")); }) ==
        "attention reflex: sa_heads 1 and prev1_heads 9223372036854775807 must be >= 0 and sum to "
        "at most n_head 6");
  CHECK(error_message([] { ReflexAttention a(mixer(2, "sa_heads=-9223372036854775808")); })
            .find("must be >= 0") != std::string::npos);
  CHECK(error_message([] { RouteAttention a(mixer(2, "k=3")); }) ==
        "attention route: unknown option 'k' (it takes norm_prev)");
  CHECK(error_message([] { RouteAttention a(mixer(2, "norm_prev=maybe")); }) ==
        "attention route: option 'norm_prev' expects true or false, got 'maybe'");
  ReflexAttention a(mixer(2));
  const Tensor x = randn({1, 3, 24});
  CHECK(error_message([&] { a.forward(x, {.layer = 2}); }) ==
        "attention reflex at layer 2 needs the inputs of the two blocks before it (MixerContext.earlier holds 0)");
  const std::vector<Tensor> wrong{randn({1, 4, 24}), randn({1, 3, 24})};
  CHECK(error_message([&] { a.forward(x, {.layer = 2, .earlier = wrong}); }) ==
        "attention reflex: the input of block 0 is [1, 4, 24], the current stream [1, 3, 24]");
  RouteAttention r(mixer(2, "norm_prev=true"));
  const std::vector<Tensor> earlier{randn({1, 3, 24}), randn({1, 3, 24})};
  CHECK(error_message([&] { r.forward(x, {.layer = 2, .earlier = earlier}); }) ==
        "attention route: norm_prev needs the block's ln_1 (MixerContext.pre_norm), and none was given");
}

TEST_CASE("with 4 heads the fork's reflex has no x_{i-2} group: the default split shrinks", "[reflex]") {
  nn::MixerOptions o = mixer(2);
  o.n_head = 4;
  ReflexAttention four(o);
  CHECK(four.sa_heads == 2);
  CHECK(four.prev1_heads == 2);
  o.n_head = 3;
  ReflexAttention three(o);
  CHECK(three.sa_heads == 2);
  CHECK(three.prev1_heads == 1);
}
