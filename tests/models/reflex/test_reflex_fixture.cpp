// attic's reflex and route attention against a PyTorch reference of the fork
// (bench/peer/reflex.py, written from Vadimbuildercxx/reflex_attention's model.py):
// bench/peer/make_reflex_fixture.py wrote tests/models/fixtures/reflex_tiny.safetensors with
// one batch and, for classic, reflex, route, both with ln_1 on the earlier states, reflex
// with 4 heads and reflex with a 1/3/2 head split, the logits, the loss and every gradient.
// Every case shares the nanoGPT weights; route's routers are drawn from U(-0.5, 0.5) so that
// a wrong source or head order shows.
#include <sstream>

#include "helpers.h"
#include "models/gpt.h"
#include "nn/safetensors.h"

using namespace attic;
using models::GPT;
using models::GPTConfig;

namespace {

const nn::SafetensorsFile& fixture() {
  static const nn::SafetensorsFile f = nn::load_safetensors(
      std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/reflex_tiny.safetensors");
  return f;
}

std::string meta(const std::string& c, const std::string& key) { return fixture().metadata.at(c + "." + key); }

// The fixture's config for case c, with the attention options it names.
GPTConfig config_of(const std::string& c) {
  GPTConfig g;
  g.vocab_size = std::stoll(meta(c, "vocab_size"));
  g.block_size = std::stoll(meta(c, "block_size"));
  g.n_layer = std::stoll(meta(c, "n_layer"));
  g.n_embd = std::stoll(meta(c, "n_embd"));
  g.n_head = std::stoll(meta(c, "n_head"));
  g.bias = meta(c, "bias") == "1";
  g.dropout = 0;
  g.attention = meta(c, "attention_type");
  std::ostringstream opts;
  if (g.attention != "classic" && meta(c, "norm_prev") == "1") opts << "norm_prev=true,";
  if (g.attention == "reflex" && (meta(c, "sa_heads") != "2" || meta(c, "prev1_heads") != "2"))
    opts << "sa_heads=" << meta(c, "sa_heads") << ",prev1_heads=" << meta(c, "prev1_heads");
  g.attention_options = opts.str();
  if (!g.attention_options.empty() && g.attention_options.back() == ',') g.attention_options.pop_back();
  return g;
}

// "param.<name>" (shared) and "<c>.param.<name>" (the routers of route cases).
nn::StateDict params_of(const std::string& c) {
  nn::StateDict sd;
  for (const auto& [k, t] : fixture().tensors) {
    if (k.rfind("param.", 0) == 0) sd[k.substr(6)] = t;
    if (k.rfind(c + ".param.", 0) == 0) sd[k.substr(c.size() + 7)] = t;
  }
  return sd;
}

double max_abs(const Tensor& t) { return max(abs(t)).item<double>(); }

}  // namespace

TEST_CASE("reflex and route GPTs equal the PyTorch reference: logits, loss, every gradient",
          "[reflex][pytorch]") {
  const std::string c = GENERATE(as<std::string>{}, "classic", "reflex", "route", "reflex_norm", "route_norm",
                                 "reflex_h4", "reflex_split");
  INFO(c);
  const nn::SafetensorsFile& f = fixture();
  GPT m(config_of(c));
  m.load_state_dict(params_of(c));  // strict: the names are the fork's, routers included
  const GPT::Output out = m.forward(f.tensors.at("idx"), f.tensors.at("targets"));
  const Tensor& ref = f.tensors.at(c + ".logits");
  REQUIRE(out.logits.shape() == ref.shape());
  CHECK(max_abs(out.logits - ref) <= 1e-5 * max_abs(ref));
  CHECK(out.loss.item<double>() == Approx(f.tensors.at(c + ".loss").item<double>()).epsilon(1e-6));
  out.loss.backward();
  int checked = 0;
  for (const auto& [name, p] : m.named_parameters()) {
    INFO(name);
    const Tensor& g = f.tensors.at(c + ".grad." + name);
    if (!p.grad().defined()) {  // the routers of blocks 0 and 1: None in PyTorch, zeros in the file
      CHECK(name.find("_router") != std::string::npos);
      CHECK(max_abs(g) == 0.0);
      continue;
    }
    CHECK(max_abs(p.grad() - g) <= 1e-4 * max_abs(g) + 1e-7);
    ++checked;
  }
  CHECK(checked >= 50);
}

TEST_CASE("a route GPT's state dict has exactly the fork's names and shapes", "[reflex][pytorch]") {
  GPT m(config_of("route"));
  const nn::StateDict theirs = params_of("route"), ours = m.state_dict();
  std::vector<std::string> a, b;
  for (const auto& [k, t] : theirs) a.push_back(k);
  for (const auto& [k, t] : ours) b.push_back(k);
  CHECK(a == b);
  for (const auto& [k, t] : ours) {
    INFO(k);
    CHECK(t.shape() == theirs.at(k).shape());
  }
  CHECK(ours.at("transformer.h.0.attn.k_router").shape() == Shape{18});
}
