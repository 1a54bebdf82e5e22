#include "optim/decay_groups.h"

namespace attic::optim {

// 10740096 -> "10,740,096", as Python's f"{n:,}"
static std::string with_commas(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

static int64_t numel(const nn::NamedTensors& ts) {
  int64_t n = 0;
  for (const auto& [name, t] : ts) n += t.numel();
  return n;
}

std::string DecayGroups::summary() const {
  return "num decayed parameter tensors: " + std::to_string(decay.size()) + ", with " +
         with_commas(numel(decay)) + " parameters\n" +
         "num non-decayed parameter tensors: " + std::to_string(no_decay.size()) + ", with " +
         with_commas(numel(no_decay)) + " parameters\n";
}

DecayGroups decay_groups(const nn::Module& model) {
  DecayGroups g;
  for (const auto& [name, p] : model.named_parameters())
    if (p.requires_grad()) (p.dim() >= 2 ? g.decay : g.no_decay).emplace_back(name, p);
  return g;
}

static std::vector<Tensor> tensors(const nn::NamedTensors& ts) {
  std::vector<Tensor> out;
  for (const auto& [name, t] : ts) out.push_back(t);
  return out;
}

AdamW configure_optimizers(const nn::Module& model, double weight_decay, double learning_rate,
                           std::pair<double, double> betas) {
  const DecayGroups g = decay_groups(model);
  return AdamW({{.params = tensors(g.decay), .weight_decay = weight_decay},
                {.params = tensors(g.no_decay), .weight_decay = 0.0}},
               AdamWOptions(learning_rate).betas(betas));
}

}  // namespace attic::optim
