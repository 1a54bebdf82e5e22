// attic's GPT against PyTorch: tests/models/fixtures/gpt_tiny.safetensors holds a tiny GPT's
// weights, one batch, and what PyTorch computed from them (bench/peer/make_gpt_fixture.py,
// run once with torch 2.15). attic must compute the same logits, loss, gradients and AdamW
// trajectory — the strongest check that every op, backward and the optimizer agree.
#include <cmath>

#include "helpers.h"
#include "models/gpt.h"
#include "nn/safetensors.h"
#include "optim/optim.h"

using namespace attic;

namespace {

// gpt_tiny: with biases; gpt_tiny_nobias: bias = false, as the training recipes use.
nn::SafetensorsFile fixture() {
  const std::string name = GENERATE(as<std::string>{}, "gpt_tiny", "gpt_tiny_nobias");
  INFO("fixture " << name);
  return nn::load_safetensors(std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/" + name +
                              ".safetensors");
}

models::GPTConfig config_of(const nn::SafetensorsFile& f) {
  models::GPTConfig c;
  c.block_size = std::stoll(f.metadata.at("block_size"));
  c.vocab_size = std::stoll(f.metadata.at("vocab_size"));
  c.n_layer = std::stoll(f.metadata.at("n_layer"));
  c.n_head = std::stoll(f.metadata.at("n_head"));
  c.n_embd = std::stoll(f.metadata.at("n_embd"));
  c.bias = f.metadata.at("bias") == "True";
  return c;
}

// The model with PyTorch's weights (keys "param.<name>").
std::unique_ptr<models::GPT> model_of(const nn::SafetensorsFile& f) {
  auto m = std::make_unique<models::GPT>(config_of(f));
  nn::StateDict sd;
  for (const auto& [k, t] : f.tensors)
    if (k.rfind("param.", 0) == 0) sd[k.substr(6)] = t;
  m->load_state_dict(sd);  // strict: every nanoGPT name must be there, lm_head.weight too
  return m;
}

// max |a - b| / (max |b| + 1e-8): one number per tensor, like llm.c's check_tensor.
double rel_err(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  REQUIRE(x.size() == y.size());
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - y[i]));
    scale = std::max(scale, std::abs(y[i]));
  }
  return diff / (scale + 1e-8);
}

}  // namespace

TEST_CASE("GPT logits and loss equal PyTorch's", "[gpt][pytorch]") {
  const nn::SafetensorsFile f = fixture();
  auto m = model_of(f);
  models::GPT::Output out = m->forward(f.tensors.at("idx"), f.tensors.at("targets"));
  CHECK(rel_err(out.logits, f.tensors.at("logits")) < 1e-5);
  CHECK(out.loss.item<double>() == Approx(f.tensors.at("loss").item<double>()).epsilon(1e-5));
}

TEST_CASE("GPT gradients equal PyTorch's, parameter by parameter", "[gpt][pytorch]") {
  const nn::SafetensorsFile f = fixture();
  auto m = model_of(f);
  m->forward(f.tensors.at("idx"), f.tensors.at("targets")).loss.backward();
  int checked = 0;
  for (auto& [name, p] : m->named_parameters()) {
    INFO(name);
    REQUIRE(p.grad().defined());
    CHECK(rel_err(p.grad(), f.tensors.at("grad." + name)) < 1e-4);
    ++checked;
  }
  // wte, wpe; per block 12 tensors with biases (6 without); ln_f weight and bias (weight)
  CHECK(checked == (config_of(f).bias ? 2 + 2 * 12 + 2 : 2 + 2 * 6 + 1));
}

TEST_CASE("five AdamW steps with clipping follow PyTorch's losses", "[gpt][pytorch]") {
  const nn::SafetensorsFile f = fixture();
  auto m = model_of(f);
  optim::AdamW opt = m->configure_optimizers(
      std::stod(f.metadata.at("weight_decay")), std::stod(f.metadata.at("lr")),
      {std::stod(f.metadata.at("beta1")), std::stod(f.metadata.at("beta2"))});
  const std::vector<float> want = f.tensors.at("adamw_losses").to_vector<float>();
  for (size_t step = 0; step < want.size(); ++step) {
    Tensor loss = m->forward(f.tensors.at("idx"), f.tensors.at("targets")).loss;
    INFO("step " << step);
    CHECK(loss.item<double>() == Approx(want[step]).epsilon(1e-4));
    loss.backward();
    optim::clip_grad_norm_(m->parameters(), std::stod(f.metadata.at("grad_clip")));
    opt.step();
    opt.zero_grad();
  }
}
