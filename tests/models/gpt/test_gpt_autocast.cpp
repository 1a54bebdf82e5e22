// attic's GPT under autocast against PyTorch's torch.autocast("cpu", torch.bfloat16):
// tests/models/fixtures/gpt_autocast.safetensors (bench/peer/make_autocast_fixture.py, torch
// 2.15) holds a small GPT's weights, a batch, and the logits, loss and gradients PyTorch
// computed from them under autocast and in float32.
//
// The two autocasts round at different places. PyTorch's linear layers return bfloat16, so
// its attention, GELU and residual adds see bfloat16 values; attic's products return float32
// and only their operands are rounded. Their difference is therefore of the order of
// bfloat16's own error, 2^-8 (4e-3) relative per rounding; the bounds below allow a few such
// roundings: 1e-2 of the largest logit, 2e-2 of each gradient's largest entry, 5e-4 on the
// loss (about 4, 3 and 25 times what this fixture gives; INFO prints the errors).
// Each comparison is also made against float32, to show that the autocast result is a
// different, rounded one.
#include <cmath>

#include "helpers.h"
#include "models/gpt.h"
#include "models/gpt_fixture.h"
#include "nn/safetensors.h"

using namespace attic;
using testing::gpt_model_of;
using testing::max_rel_err;

namespace {

nn::SafetensorsFile fixture() {
  return nn::load_safetensors(std::string(ATTIC_SOURCE_DIR) +
                              "/tests/models/fixtures/gpt_autocast.safetensors");
}

}  // namespace

TEST_CASE("GPT under autocast: logits, loss and gradients near PyTorch's autocast",
          "[gpt][pytorch][autocast]") {
  const nn::SafetensorsFile f = fixture();
  auto m = gpt_model_of(f);
  models::GPT::Output out;
  {
    AutocastGuard cast(kBFloat16);
    out = m->forward(f.tensors.at("idx"), f.tensors.at("targets"));
  }
  out.loss.backward();
  const double loss = out.loss.item<double>();
  const double torch_bf16 = f.tensors.at("bf16.loss").item<double>();
  const double torch_f32 = f.tensors.at("f32.loss").item<double>();
  INFO("loss: attic autocast " << loss << ", PyTorch autocast " << torch_bf16 << ", float32 "
                               << torch_f32);
  CHECK(std::abs(loss - torch_bf16) < 5e-4);
  const double logits_err = max_rel_err(out.logits, f.tensors.at("bf16.logits"));
  const double logits_f32 = max_rel_err(out.logits, f.tensors.at("f32.logits"));
  INFO("logits: " << logits_err << " from PyTorch's autocast, " << logits_f32 << " from float32");
  CHECK(logits_err < 1e-2);
  CHECK(logits_f32 > 1e-4);  // the products were rounded
  int checked = 0;
  for (auto& [name, p] : m->named_parameters()) {
    const double e = max_rel_err(p.grad(), f.tensors.at("bf16.grad." + name));
    INFO(name << ": " << e << " from PyTorch's autocast");
    CHECK(e < 2e-2);
    CHECK(p.grad().dtype() == kFloat32);
    ++checked;
  }
  CHECK(checked == 2 + 2 * 12 + 2);
}

TEST_CASE("GPT outside the guard computes PyTorch's float32 numbers", "[gpt][pytorch][autocast]") {
  const nn::SafetensorsFile f = fixture();
  auto m = gpt_model_of(f);
  models::GPT::Output out = m->forward(f.tensors.at("idx"), f.tensors.at("targets"));
  CHECK(max_rel_err(out.logits, f.tensors.at("f32.logits")) < 1e-5);
  CHECK(out.loss.item<double>() == Approx(f.tensors.at("f32.loss").item<double>()).epsilon(1e-5));
}
