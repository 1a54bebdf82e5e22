// A GPT from a fixture that PyTorch wrote (bench/peer/make_gpt_fixture.py,
// make_autocast_fixture.py): its config from the file's metadata, its weights from the
// tensors named "param.<nanoGPT's name>", and the error measure the comparisons use.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "tests/catch.h"
#include "models/gpt.h"
#include "nn/safetensors.h"

namespace attic::testing {

inline models::GPTConfig gpt_config_of(const nn::SafetensorsFile& f) {
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
inline std::unique_ptr<models::GPT> gpt_model_of(const nn::SafetensorsFile& f) {
  auto m = std::make_unique<models::GPT>(gpt_config_of(f));
  nn::StateDict sd;
  for (const auto& [k, t] : f.tensors)
    if (k.rfind("param.", 0) == 0) sd[k.substr(6)] = t;
  m->load_state_dict(sd);  // strict: every nanoGPT name must be there, lm_head.weight too
  return m;
}

// max |a - b| / (max |b| + 1e-8): one number per tensor, like llm.c's check_tensor.
inline double max_rel_err(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  REQUIRE(x.size() == y.size());
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - y[i]));
    scale = std::max(scale, std::abs(y[i]));
  }
  return diff / (scale + 1e-8);
}

}  // namespace attic::testing
