// attic's attention and blocks against the originals: tonyduan/transformer-blocks'
// src/blocks.py (at commits 01581ee and b4af92e, copied into bench/peer/transformer_blocks/)
// wrote tests/nn/fixtures/transformer_blocks_tiny.safetensors
// (bench/peer/make_transformer_blocks_fixture.py): each block on one batch, its output, a
// linear loss of it, and the gradient of every parameter and input. The original's
// parameters are loaded under attic's names (the map is in renamed()), so both sides
// compute from the same numbers.
//
// Settings that make attic compute what that code computes: softmax logits scaled by
// 1/√dim_a (scale_by_total_width), the Set Transformer's blocks without norms (its MAB has
// use_layer_norm=False), every dropout 0.
#include <map>

#include "helpers.h"
#include "nn/attention/feed_forward.h"
#include "nn/attention/linear_attention.h"
#include "nn/attention/positional_encoding.h"
#include "nn/attention/scale_norm.h"
#include "nn/blocks/blocks.h"
#include "nn/safetensors.h"

using namespace attic;
using namespace attic::nn;

namespace {

const SafetensorsFile& fixture() {
  static const SafetensorsFile f = load_safetensors(
      std::string(ATTIC_SOURCE_DIR) + "/tests/nn/fixtures/transformer_blocks_tiny.safetensors");
  return f;
}

const Tensor& at(const std::string& key) { return fixture().tensors.at(key); }

// max |a − b| / max |b|
double rel_err(const Tensor& a, const Tensor& b) {
  return max(abs(a - b)).item<double>() / (max(abs(b)).item<double>() + 1e-8);
}

// An input of the case, as a leaf that collects its gradient.
Tensor input(const std::string& c, const std::string& name) {
  return at(c + "." + name).clone().requires_grad_(true);
}

// A mask of the fixture (1 keep, 0 drop) as attic's bool keep.
Tensor keep(const std::string& c, const std::string& name) { return gt(at(c + "." + name), 0.5); }

// The original's state-dict names as attic's (attic name -> original name): the path
// segments that differ are replaced, the rest stay.
std::map<std::string, std::string> name_map(const std::string& c) {
  static const std::map<std::string, std::string> segment = {
      {"ln1", "sn1"},     {"ln2", "sn2"},                {"ln3", "sn3"},
      {"encoding", "pe"}, {"inducing_pts", "inducing"}, {"seed_vectors", "seeds"}};
  const std::string prefix = c + ".param.";
  std::map<std::string, std::string> names;
  for (const auto& [k, t] : fixture().tensors) {
    if (k.rfind(prefix, 0) != 0) continue;
    const std::string theirs = k.substr(prefix.size());
    std::string ours;
    for (size_t start = 0; start <= theirs.size();) {
      size_t dot = theirs.find('.', start);
      if (dot == std::string::npos) dot = theirs.size();
      std::string s = theirs.substr(start, dot - start);
      if (auto it = segment.find(s); it != segment.end()) s = it->second;
      if (start == 0 && s == "attn" && c == "decoder") s = "self_attn";
      if (start == 0 && s == "mem_attn") s = c == "decoder" ? "cross_attn" : "attn";
      ours += (ours.empty() ? "" : ".") + s;
      start = dot + 1;
    }
    names[ours] = theirs;
  }
  return names;
}

// The case's parameters under attic's names. The Set Transformer's seeds and inducing
// points carry a leading 1 there ([1, k, dim]), so each tensor takes attic's shape.
StateDict renamed(const std::string& c, const Module& m) {
  const StateDict ours = m.state_dict();
  StateDict sd;
  for (const auto& [name, theirs] : name_map(c)) {
    INFO(c << ": " << theirs << " -> " << name);
    REQUIRE(ours.count(name) == 1);
    sd[name] = at(c + ".param." + theirs).reshape(ours.at(name).shape());
  }
  return sd;
}

// out against the fixture, then loss = Σ out · w backpropagated: every parameter's
// gradient and each input's against it.
void check_case(const std::string& c, Module& m, const Tensor& out,
                const std::map<std::string, Tensor>& inputs) {
  CHECK(out.shape() == at(c + ".out").shape());
  CHECK(rel_err(out, at(c + ".out")) < 1e-5);
  Tensor loss = sum(out * at(c + ".w"));
  CHECK(loss.item<double>() == Approx(at(c + ".loss").item<double>()).epsilon(1e-4).margin(1e-5));
  loss.backward();
  auto close = [&](const Tensor& g, const Tensor& ref) {
    REQUIRE(g.defined());
    CHECK(max(abs(g.reshape(ref.shape()) - ref)).item<double>() <= 1e-4 * max(abs(ref)).item<double>() + 1e-6);
  };
  const std::map<std::string, std::string> names = name_map(c);
  const auto params = m.named_parameters();
  for (const auto& [name, p] : params) {
    INFO(c << ": " << name);
    REQUIRE(names.count(name) == 1);
    close(p.grad(), at(c + ".grad." + names.at(name)));
  }
  size_t with_grad = 0;  // the original's parameters (its buffers have no gradient)
  for (const auto& [name, theirs] : names) with_grad += fixture().tensors.count(c + ".grad." + theirs);
  CHECK(params.size() == with_grad);
  for (const auto& [name, x] : inputs) {
    INFO(c << ": input " << name);
    close(x.grad(), at(c + ".grad." + name));
  }
}

BlockOptions block_options() {
  BlockOptions o;
  o.dim = 8;
  o.hidden = 12;
  o.num_heads = 2;
  o.dropout = 0;
  o.memory_dim = 6;
  o.scale_by_total_width = true;
  return o;
}

// The Set Transformer blocks take an AttentionFactory; this one gives src/blocks.py's scale.
std::shared_ptr<Attention> total_width_softmax(const AttentionOptions& options) {
  AttentionOptions o = options;
  o.scale_by_total_width = true;
  return std::make_shared<MultiHeadAttention>(o);
}

AttentionOptions attention_options(int64_t dim_kv, int64_t heads) {
  AttentionOptions o;
  o.dim_q = 8;
  o.dim_k = o.dim_v = dim_kv;
  o.num_heads = heads;
  o.dropout = 0;
  return o;
}

}  // namespace

TEST_CASE("MultiHeadAttention equals MultiHeadAttn of transformer-blocks", "[nn][attention][pytorch]") {
  SECTION("key padding, keys of another width") {
    AttentionOptions o = attention_options(6, 2);
    o.scale_by_total_width = true;
    MultiHeadAttention m(o);
    m.load_state_dict(renamed("mha", m));
    Tensor q = input("mha", "q"), k = input("mha", "k"), v = input("mha", "v");
    check_case("mha", m, m.forward(q, k, v, keep("mha", "mask")), {{"q", q}, {"k", k}, {"v", v}});
  }
  SECTION("a full [B, Tq, Tk] mask, dim_a and dim_o of their own") {
    AttentionOptions o = attention_options(8, 2);
    o.dim_a = 12;
    o.dim_o = 10;
    o.scale_by_total_width = true;
    MultiHeadAttention m(o);
    m.load_state_dict(renamed("mha_mask3", m));
    const std::string c = "mha_mask3";
    Tensor q = input(c, "q"), k = input(c, "k"), v = input(c, "v");
    check_case(c, m, m.forward(q, k, v, keep(c, "mask")), {{"q", q}, {"k", k}, {"v", v}});
  }
}

TEST_CASE("FeedForward, PositionalEncoding and ScaleNorm equal transformer-blocks'", "[nn][attention][pytorch]") {
  SECTION("PositionwiseFFN") {
    FeedForward m(8, 12, 0.0);
    m.load_state_dict(renamed("ffn", m));
    Tensor x = input("ffn", "x");
    check_case("ffn", m, m.forward(x), {{"x", x}});
  }
  SECTION("PositionalEncoding") {
    PositionalEncoding m(8, 16, 0.0);
    CHECK(rel_err(m.state_dict().at("pe"), at("pe.param.encoding")) < 1e-6);  // built, not loaded
    Tensor x = input("pe", "x");
    check_case("pe", m, m.forward(x), {{"x", x}});
  }
  SECTION("ScaleNorm") {
    ScaleNorm m(8);
    m.load_state_dict(renamed("scalenorm", m));
    Tensor x = input("scalenorm", "x");
    check_case("scalenorm", m, m.forward(x), {{"x", x}});
  }
}

TEST_CASE("encoder, decoder and cross-attention blocks equal transformer-blocks'", "[nn][blocks][pytorch]") {
  SECTION("EncoderBlock with key padding") {
    EncoderBlock m(block_options());
    m.load_state_dict(renamed("encoder", m));
    Tensor x = input("encoder", "x");
    check_case("encoder", m, m.forward(x, keep("encoder", "mask")), {{"x", x}});
  }
  SECTION("DecoderBlock: the causal mask given as a tensor, or as causal = true") {
    const bool as_flag = GENERATE(false, true);
    INFO("causal as a flag: " << as_flag);
    DecoderBlock m(block_options());
    m.load_state_dict(renamed("decoder", m));
    Tensor x = input("decoder", "x"), mem = input("decoder", "memory");
    Tensor out = as_flag ? m.forward(x, mem, Tensor(), keep("decoder", "memory_mask"), true)
                         : m.forward(x, mem, keep("decoder", "mask"), keep("decoder", "memory_mask"), false);
    check_case("decoder", m, out, {{"x", x}, {"memory", mem}});
  }
  SECTION("CrossAttentionBlock (commit b4af92e) with masked memory") {
    CrossAttentionBlock m(block_options());
    m.load_state_dict(renamed("cross", m));
    Tensor x = input("cross", "x"), mem = input("cross", "memory");
    check_case("cross", m, m.forward(x, mem, keep("cross", "memory_mask")), {{"x", x}, {"memory", mem}});
  }
}

TEST_CASE("MAB, SAB, PMA and ISAB equal the Set Transformer blocks of transformer-blocks",
          "[nn][blocks][pytorch]") {
  SECTION("MAB") {
    MAB m(8, 8, 2, total_width_softmax, /*norm=*/false);
    m.load_state_dict(renamed("mab", m));
    Tensor q = input("mab", "q"), v = input("mab", "v");
    check_case("mab", m, m.forward(q, v), {{"q", q}, {"v", v}});
  }
  SECTION("SAB") {
    SAB m(8, 2, total_width_softmax, false);
    m.load_state_dict(renamed("sab", m));
    Tensor x = input("sab", "x");
    check_case("sab", m, m.forward(x), {{"x", x}});
  }
  SECTION("PMA with two seeds") {
    PMA m(8, 2, 2, total_width_softmax, false);
    m.load_state_dict(renamed("pma", m));
    Tensor x = input("pma", "x");
    check_case("pma", m, m.forward(x), {{"x", x}});
  }
  SECTION("ISAB with three inducing points") {
    ISAB m(8, 3, 2, total_width_softmax, false);
    m.load_state_dict(renamed("isab", m));
    Tensor x = input("isab", "x");
    check_case("isab", m, m.forward(x), {{"x", x}});
  }
}

TEST_CASE("LinearAttention equals LinearAttention of transformer-blocks (commit b4af92e)",
          "[nn][attention][linear][pytorch]") {
  SECTION("two heads, keys of another width") {
    LinearAttention m(attention_options(6, 2), FeatureMap::EluPlusOne);
    m.load_state_dict(renamed("linear", m));
    Tensor q = input("linear", "q"), k = input("linear", "k"), v = input("linear", "v");
    check_case("linear", m, m.forward(q, k, v), {{"q", q}, {"k", k}, {"v", v}});
  }
  SECTION("one head with key padding, in the O(n) and the O(n²) form") {
    const bool naive = GENERATE(false, true);
    INFO("naive: " << naive);
    LinearAttention m(attention_options(6, 1), FeatureMap::EluPlusOne);
    const std::string c = "linear_mask";
    m.load_state_dict(renamed(c, m));
    Tensor q = input(c, "q"), k = input(c, "k"), v = input(c, "v");
    Tensor out = naive ? m.forward_naive(q, k, v, keep(c, "mask")) : m.forward(q, k, v, keep(c, "mask"));
    check_case(c, m, out, {{"q", q}, {"k", k}, {"v", v}});
  }
}
