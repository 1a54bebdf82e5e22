#include "models/gpt/mlp.h"

namespace attic::models {

MLP::MLP(const GPTConfig& cfg) {
  c_fc = register_module("c_fc", std::make_shared<nn::Linear>(cfg.n_embd, 4 * cfg.n_embd, cfg.bias));
  c_proj = register_module("c_proj", std::make_shared<nn::Linear>(4 * cfg.n_embd, cfg.n_embd, cfg.bias));
  approximate = cfg.gelu;
  dropout = register_module("dropout", std::make_shared<nn::Dropout>(cfg.dropout));
}

Tensor MLP::forward(const Tensor& x) {
  return dropout->forward(c_proj->forward(gelu(c_fc->forward(x), approximate)));
}

}  // namespace attic::models
