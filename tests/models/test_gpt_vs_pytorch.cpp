// attic's GPT against PyTorch: tests/models/fixtures/gpt_tiny.safetensors holds a tiny GPT's
// weights, one batch, and what PyTorch computed from them (bench/peer/make_gpt_fixture.py,
// run once with torch 2.15). attic must compute the same logits, loss, gradients and AdamW
// trajectory — the strongest check that every op, backward and the optimizer agree.
#include <cmath>

#include "helpers.h"
#include "models/gpt.h"
#include "models/gpt_fixture.h"
#include "nn/safetensors.h"
#include "optim/optim.h"

using namespace attic;
using testing::gpt_config_of;
using testing::gpt_model_of;
using testing::max_rel_err;

namespace {

// gpt_tiny: with biases; gpt_tiny_nobias: bias = false, as the training recipes use.
nn::SafetensorsFile fixture() {
  const std::string name = GENERATE(as<std::string>{}, "gpt_tiny", "gpt_tiny_nobias");
  INFO("fixture " << name);
  return nn::load_safetensors(std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/" + name +
                              ".safetensors");
}

}  // namespace

TEST_CASE("GPT logits and loss equal PyTorch's", "[gpt][pytorch]") {
  const nn::SafetensorsFile f = fixture();
  auto m = gpt_model_of(f);
  models::GPT::Output out = m->forward(f.tensors.at("idx"), f.tensors.at("targets"));
  CHECK(max_rel_err(out.logits, f.tensors.at("logits")) < 1e-5);
  CHECK(out.loss.item<double>() == Approx(f.tensors.at("loss").item<double>()).epsilon(1e-5));
}

TEST_CASE("GPT gradients equal PyTorch's, parameter by parameter", "[gpt][pytorch]") {
  const nn::SafetensorsFile f = fixture();
  auto m = gpt_model_of(f);
  m->forward(f.tensors.at("idx"), f.tensors.at("targets")).loss.backward();
  int checked = 0;
  for (auto& [name, p] : m->named_parameters()) {
    INFO(name);
    REQUIRE(p.grad().defined());
    CHECK(max_rel_err(p.grad(), f.tensors.at("grad." + name)) < 1e-4);
    ++checked;
  }
  // wte, wpe; per block 12 tensors with biases (6 without); ln_f weight and bias (weight)
  CHECK(checked == (gpt_config_of(f).bias ? 2 + 2 * 12 + 2 : 2 + 2 * 6 + 1));
}

TEST_CASE("five AdamW steps with clipping follow PyTorch's losses", "[gpt][pytorch]") {
  const nn::SafetensorsFile f = fixture();
  auto m = gpt_model_of(f);
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
