// CausalSelfAttention: its two paths through scaled_dot_product_attention agree, the
// dropout path runs on the module's device, and no mask joins the state dict.
#include "devices.h"
#include "helpers.h"
#include "models/gpt.h"

using namespace attic;
using namespace attic::testing;

namespace {

models::GPTConfig config(double dropout) {
  models::GPTConfig c;
  c.block_size = 8;
  c.n_head = 2;
  c.n_embd = 8;
  c.bias = true;
  c.dropout = dropout;
  return c;
}

}  // namespace

TEST_CASE("CausalSelfAttention: fused and composed paths agree on every device",
          "[gpt][attention][devices]") {
  for (const Device d : available_devices()) {
    manual_seed(5);
    nn::CausalSelfAttention attn(models::mixer_options(config(0.25)));
    attn.to(d);
    const Tensor x = randn({2, 6, 8}).to(d);
    attn.eval();  // no dropout: the fused kernel
    const Tensor fused = attn.forward(x);
    attn.fused = false;  // the same math in separate ops
    const Tensor composed = attn.forward(x);
    CHECK(fused.device() == d);
    CHECK_THAT(values(fused.to(Device::CPU)), ApproxValues(values(composed.to(Device::CPU)), 1e-5));
    // training with attention dropout takes the composed path, with the causal mask made
    // on the device of q: nothing may mix devices
    attn.fused = true;
    attn.train();
    const Tensor y = attn.forward(x);
    CHECK(y.device() == d);
    sum(y).backward();
    CHECK(attn.c_attn->weight.grad().device() == d);
  }
}

TEST_CASE("CausalSelfAttention's state dict holds nanoGPT's names only", "[gpt][attention]") {
  nn::CausalSelfAttention attn(models::mixer_options(config(0.0)));
  std::vector<std::string> keys;
  for (const auto& [name, t] : attn.state_dict()) keys.push_back(name);
  CHECK(keys == std::vector<std::string>{"c_attn.bias", "c_attn.weight", "c_proj.bias",
                                         "c_proj.weight"});
}
