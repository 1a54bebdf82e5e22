// attic's Linformer against the original: the linformer-pytorch package (0.19.3) wrote
// tests/models/fixtures/linformer_tiny.safetensors (bench/peer/make_linformer_fixture.py):
// for every parameter sharing mode and E/F method, the leaky causal mask, full attention,
// reduced k, the projections in and out, the encoder-decoder, Padder and the bare stack,
// its output, a linear loss of it and every gradient. The state dicts load one to one.
#include "helpers.h"
#include "models/linformer.h"
#include "nn/safetensors.h"

using namespace attic;
using namespace attic::models::linformer;

namespace {

const nn::SafetensorsFile& fixture() {
  static const nn::SafetensorsFile f = nn::load_safetensors(
      std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/linformer_tiny.safetensors");
  return f;
}

// max |a − b| / max |b|
double rel_err(const Tensor& a, const Tensor& b) {
  return max(abs(a - b)).item<double>() / (max(abs(b)).item<double>() + 1e-8);
}

// LinformerLM(num_tokens=11, input_size=16, channels=16, dim_k=4, dim_ff=24, nhead=2,
// depth=2, every dropout 0), the fixture's common case, then each case's change.
LinformerLMOptions lm_case(const std::string& c) {
  LinformerLMOptions o;
  o.num_tokens = 11;
  o.dropout_tokens = 0;
  LinformerOptions& b = o.body;
  b.input_size = 16;
  b.channels = 16;
  b.dim_k = 4;
  b.dim_ff = 24;
  b.nhead = 2;
  b.depth = 2;
  b.dropout = 0;
  b.dropout_ff = 0;
  b.no_params_code_std = true;  // irrelevant once loaded, but the package's draw
  b.parameter_sharing = Sharing::Headwise;
  if (c == "none" || c == "conv_none" || c == "noparams" || c == "kreduce") b.parameter_sharing = Sharing::None;
  if (c == "kv" || c == "extras") b.parameter_sharing = Sharing::KV;
  if (c == "layerwise" || c == "noparams_layerwise" || c == "padder") b.parameter_sharing = Sharing::Layerwise;
  if (c == "conv" || c == "conv_none") b.method = Method::Convolution;
  if (c == "noparams" || c == "noparams_layerwise") b.method = Method::NoParams;
  if (c == "causal" || c == "full") b.causal = Causal::Leaky;  // the package's causal=True
  if (c == "full") b.full_attention = true;
  if (c == "kreduce") {
    b.depth = 3;
    b.k_reduce_by_layer = 1;
  }
  if (c == "extras") {
    b.w_o_intermediate_dim = 12;
    o.emb_dim = 20;
    b.activation = "relu";
  }
  if (c == "noff") b.include_ff = false;
  if (c == "ffint") {
    b.depth = 3;
    b.ff_intermediate = 20;
  }
  if (c == "dimd") b.dim_d = 6;
  return o;
}

nn::StateDict params_of(const std::string& c) {
  nn::StateDict sd;
  const std::string prefix = c + ".param.";
  for (const auto& [k, t] : fixture().tensors)
    if (k.rfind(prefix, 0) == 0) sd[k.substr(prefix.size())] = t;
  return sd;
}

// out against the fixture, then loss = Σ out · w backpropagated and every gradient of m
// against it. A parameter the forward never reads (E and F under full attention) has no
// gradient in attic and a zero one in the fixture.
void check_case(const std::string& c, nn::Module& m, const Tensor& out) {
  const nn::SafetensorsFile& f = fixture();
  CHECK(out.shape() == f.tensors.at(c + ".out").shape());
  CHECK(rel_err(out, f.tensors.at(c + ".out")) < 1e-5);
  Tensor loss = sum(out * f.tensors.at(c + ".w"));
  CHECK(loss.item<double>() == Approx(f.tensors.at(c + ".loss").item<double>()).epsilon(1e-4).margin(1e-4));
  loss.backward();
  int checked = 0;
  for (const auto& [name, p] : m.named_parameters()) {
    INFO(name);
    const Tensor& ref = f.tensors.at(c + ".grad." + name);
    if (!p.grad().defined()) {
      CHECK(max(abs(ref)).item<double>() == 0.0);
      continue;
    }
    // A convolution E's bias adds the same q·b to every slot's score, which the softmax
    // cancels: its true gradient is 0, and both sides hold rounding noise of ~1e-8.
    CHECK(max(abs(p.grad() - ref)).item<double>() <= 1e-4 * max(abs(ref)).item<double>() + 1e-6);
    ++checked;
  }
  CHECK(checked > 10);
}

}  // namespace

TEST_CASE("LinformerLM equals the linformer-pytorch package: outputs and gradients", "[linformer][pytorch]") {
  const std::string c = GENERATE(as<std::string>{}, "none", "headwise", "kv", "layerwise", "conv", "conv_none",
                                 "noparams", "noparams_layerwise", "causal", "full", "kreduce", "extras", "noff",
                                 "ffint", "dimd");
  INFO(c);
  LinformerLM m(lm_case(c));
  m.load_state_dict(params_of(c));  // strict: every name of the package's state dict
  check_case(c, m, m.forward(fixture().tensors.at(c + ".x")));
}

TEST_CASE("LinformerLM's state dict has exactly the package's names", "[linformer][pytorch]") {
  const std::string c = GENERATE(as<std::string>{}, "none", "kv", "layerwise", "conv", "noparams", "extras");
  INFO(c);
  LinformerLM m(lm_case(c));
  nn::StateDict theirs = params_of(c), ours = m.state_dict();
  std::vector<std::string> a, b;
  for (const auto& [k, t] : theirs) a.push_back(k);
  for (const auto& [k, t] : ours) b.push_back(k);
  CHECK(a == b);
  for (const auto& [k, t] : ours) {
    INFO(k);
    CHECK(t.shape() == theirs.at(k).shape());
  }
}

TEST_CASE("LinformerEncDec equals the package (its decoder masks the cross-attention)", "[linformer][pytorch]") {
  LinformerEncDecOptions o;
  o.enc = lm_case("headwise");
  o.enc.return_emb = true;
  o.dec = lm_case("headwise");
  o.dec.num_tokens = 13;
  o.dec.body.decoder_mode = true;
  o.dec.body.causal = Causal::Leaky;
  o.dec.body.decoder_mask = DecoderMask::Context;  // what the package's code does
  LinformerEncDec m(o);
  m.load_state_dict(params_of("encdec"));
  check_case("encdec", m, m.forward(fixture().tensors.at("encdec.x"), fixture().tensors.at("encdec.y")));
}

TEST_CASE("Padder equals the package's on a short input", "[linformer][pytorch]") {
  auto lm = std::make_shared<LinformerLM>(lm_case("padder"));
  Padder m(lm, /*pad_mask=*/false);  // the package's: padded positions feed the projections
  lm->load_state_dict(params_of("padder"));
  check_case("padder", *lm, m.forward(fixture().tensors.at("padder.x")));
}

TEST_CASE("the Linformer stack equals the package's, input gradient too", "[linformer][pytorch]") {
  LinformerOptions o = lm_case("none").body;
  o.parameter_sharing = Sharing::None;
  Linformer m(o);
  m.load_state_dict(params_of("stack"));
  Tensor x = fixture().tensors.at("stack.x").clone().requires_grad_(true);
  check_case("stack", m, m.forward(x));
  CHECK(rel_err(x.grad(), fixture().tensors.at("stack.grad.x")) < 1e-4);
}

TEST_CASE("each head's P̄ equals the package's (visualize)", "[linformer][pytorch]") {
  LinformerLM m(lm_case("headwise"));
  m.load_state_dict(params_of("headwise"));
  LayerArgs args;
  args.visualize = true;
  m.forward(fixture().tensors.at("headwise.x"), args);
  auto attns = m.stack().attentions();
  REQUIRE(attns.size() == 2);
  for (size_t l = 0; l < 2; ++l)
    for (size_t h = 0; h < 2; ++h) {
      INFO("layer " << l << " head " << h);
      Tensor p = attns[l]->heads->at<LinearAttentionHead>(h)->P_bar.select(0, 0);  // [16, 4]
      CHECK(rel_err(p, fixture().tensors.at("headwise.pbar." + std::to_string(l) + "." + std::to_string(h))) < 1e-5);
    }
}
