// The ELiTA LM (models/elita/elita_lm.h) against a PyTorch reference of attic's own
// (bench/peer/elita.py wrote tests/models/fixtures/elita_tiny.safetensors): logits, loss and
// every gradient, with the original's clip active and with stable numerics and absolute
// positions. Also: its parameter names, tied head, cached generation and a batch it overfits.
#include "helpers.h"
#include "models/elita.h"
#include "nn/safetensors.h"
#include "optim/adam.h"
#include "optim/decay_groups.h"

#include <set>

using namespace attic;
using namespace attic::models::elita;

namespace {

const nn::SafetensorsFile& fixture() {
  static const nn::SafetensorsFile f = nn::load_safetensors(
      std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/elita_tiny.safetensors");
  return f;
}

ElitaConfig config_of(const std::string& c) {
  const auto& m = fixture().metadata;
  ElitaConfig cfg;
  cfg.vocab_size = std::stoll(m.at(c + ".vocab_size"));
  cfg.n_embd = std::stoll(m.at(c + ".W"));
  cfg.n_layer = std::stoll(m.at(c + ".n_layer"));
  cfg.n_head = std::stoll(m.at(c + ".H"));
  cfg.att_w = std::stoll(m.at(c + ".A"));
  cfg.pos_w = std::stoll(m.at(c + ".P"));
  cfg.ff_factor = std::stoll(m.at(c + ".F"));
  cfg.block_size = std::stoll(m.at(c + ".block_size"));
  cfg.numerics = parse_numerics(m.at(c + ".numerics"));
  cfg.positions = parse_positions(m.at(c + ".positions"));
  return cfg;
}

// max |a - b| / (max |b| + 1e-8)
double rel_err(const Tensor& a, const Tensor& b) {
  return max(abs(a - b)).item<double>() / (max(abs(b)).item<double>() + 1e-8);
}

ElitaConfig tiny(Numerics n, Positions p) {
  ElitaConfig c;
  c.vocab_size = 11;
  c.block_size = 16;
  c.n_layer = 2;
  c.n_head = 2;
  c.n_embd = 16;
  c.pos_w = 4;
  c.numerics = n;
  c.positions = p;
  return c;
}

}  // namespace

TEST_CASE("ELiTA LM logits, loss and gradients equal PyTorch's", "[elita][pytorch]") {
  const std::string c = GENERATE(as<std::string>{}, "clip_relative", "stable_absolute", "stable_scaled");
  INFO(c);
  const nn::SafetensorsFile& f = fixture();
  ElitaLM m(config_of(c));
  nn::StateDict sd;
  const std::string prefix = c + ".param.";
  for (const auto& [k, t] : f.tensors)
    if (k.rfind(prefix, 0) == 0) sd[k.substr(prefix.size())] = t;
  m.load_state_dict(sd);  // strict: every name, lm_head.weight too
  ElitaLM::Output out = m.forward(f.tensors.at(c + ".idx"), f.tensors.at(c + ".targets"));
  CHECK(rel_err(out.logits, f.tensors.at(c + ".logits")) < 1e-5);
  CHECK(out.loss.item<double>() == Approx(f.tensors.at(c + ".loss").item<double>()).epsilon(1e-5));
  out.loss.backward();
  // With the clip active the weights e^{r + s} span e^{±40}, and float32 gradients are
  // less certain: PyTorch's own differ from its float64 ones by up to 4e-5 on this case.
  const double tolerance = c == "clip_relative" ? 5e-4 : 1e-4;
  int checked = 0;
  for (auto& [name, p] : m.named_parameters()) {
    INFO(name);
    REQUIRE(p.grad().defined());
    CHECK(rel_err(p.grad(), f.tensors.at(c + ".grad." + name)) < tolerance);
    ++checked;
  }
  CHECK(checked == 1 + 2 * (10 + 6));  // wte; per layer 10 attention and 6 feed-forward tensors
}

TEST_CASE("ELiTA LM: parameter names, the tied head and the parameter count", "[elita]") {
  ElitaLM m(tiny(Numerics::Stable, Positions::Relative));
  const nn::StateDict sd = m.state_dict();
  for (const char* name : {"transformer.wte.weight", "transformer.h.0.attn.k1", "transformer.h.1.attn.c",
                           "transformer.h.1.attn.output_weight", "transformer.h.0.ff.w3",
                           "transformer.h.1.ff.b3", "lm_head.weight"})
    CHECK(sd.count(name) == 1);
  CHECK(m.lm_head->weight.data_ptr<float>() == m.wte->weight.data_ptr<float>());
  // wte + per layer: attention 3HW + 5HP + 2HWA, FeedForward2 9W² + 10W + 8
  const int64_t W = 16, H = 2, A = 8, P = 4;
  CHECK(m.num_parameters() == 11 * W + 2 * (3 * H * W + 5 * H * P + 2 * H * W * A + 9 * W * W + 10 * W + 8));
}

TEST_CASE("ELiTA LM with absolute positions: cached generation draws the same tokens, "
          "and relative positions recompute", "[elita]") {
  const Numerics n = GENERATE(Numerics::Stable, Numerics::Clip);
  const Positions p = GENERATE(Positions::Absolute, Positions::Relative);
  INFO(to_string(n) << ", " << to_string(p));
  manual_seed(4);
  ElitaLM m(tiny(n, p));
  CHECK(m.start_decoding().has_value() == (p == Positions::Absolute));
  const Tensor prompt = from_vector<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  // 20 new tokens: past block_size 16, so the window slides too
  Generator g1(9), g2(9);
  const Tensor cached = m.generate(prompt, 20, 1.0, 0, &g1, true);
  const Tensor plain = m.generate(prompt, 20, 1.0, 0, &g2, false);
  CHECK(cached.to_vector<int64_t>() == plain.to_vector<int64_t>());
  if (p == Positions::Absolute) {
    // step() gives forward()'s last logits at every length
    auto state = m.start_decoding();
    const Tensor idx = cached.narrow(1, 0, 16);
    m.eval();
    NoGradGuard ng;
    for (int64_t t = 0; t < 16; ++t) {
      const Tensor step = m.step(*state, idx.narrow(1, t, 1));
      const Tensor full = m.forward(idx.narrow(1, 0, t + 1)).logits;
      CHECK(max(abs(step - full)).item<double>() < 1e-4);
    }
  }
}

TEST_CASE("ELiTA LM: matrices decay, vectors and Attention2's position vectors do not",
          "[elita][optim]") {
  ElitaLM m(tiny(Numerics::Stable, Positions::Relative));
  const optim::DecayGroups g = optim::decay_groups(m);
  auto names = [](const nn::NamedTensors& ts) {
    std::set<std::string> out;
    for (const auto& [n, t] : ts) out.insert(n);
    return out;
  };
  const std::set<std::string> decay = names(g.decay), kept = names(g.no_decay);
  for (const char* n : {"transformer.wte.weight", "transformer.h.0.attn.k1", "transformer.h.1.attn.value_weight",
                        "transformer.h.0.ff.w3"})
    CHECK(decay.count(n) == 1);
  for (const char* n : {"transformer.h.0.attn.a1", "transformer.h.0.attn.b2", "transformer.h.1.attn.c",
                        "transformer.h.0.ff.b1"})
    CHECK(kept.count(n) == 1);
  CHECK(decay.size() == 1 + 2 * (5 + 3));  // wte; per layer k1-3, value/output weights, w1-3
  CHECK(kept.size() == 2 * (5 + 3));       // per layer a1, a2, b1, b2, c and b1-3
}

TEST_CASE("ELiTA LM overfits one batch", "[elita][e2e]") {
  manual_seed(6);
  ElitaLM m(tiny(Numerics::Stable, Positions::Relative));
  const Tensor x = randint(0, 11, {4, 12}), y = randint(0, 11, {4, 12});
  optim::AdamW opt = m.configure_optimizers(0.0, 1e-2, {0.9, 0.99});
  double first = 0, last = 0;
  for (int step = 0; step < 150; ++step) {
    Tensor loss = m.forward(x, y).loss;
    if (step == 0) first = loss.item<double>();
    last = loss.item<double>();
    loss.backward();
    opt.step();
    opt.zero_grad();
  }
  INFO("loss " << first << " -> " << last);
  CHECK(first > 2.0);
  CHECK(last < 0.1);
}
