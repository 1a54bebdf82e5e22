#include "optim/decay_groups.h"

#include <set>

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

// Every dotted name below module (at prefix) that a module lists in no_weight_decay().
static void collect_no_decay(const nn::Module& module, const std::string& prefix,
                             std::set<std::string>& out) {
  for (const std::string& name : module.no_weight_decay()) out.insert(prefix + name);
  for (const auto& [name, child] : module.named_children())
    collect_no_decay(*child, prefix + name + ".", out);
}

DecayGroups decay_groups(const nn::Module& model) {
  std::set<std::string> kept;
  collect_no_decay(model, "", kept);
  DecayGroups g;
  for (const auto& [name, p] : model.named_parameters())
    if (p.requires_grad())
      (p.dim() >= 2 && !kept.count(name) ? g.decay : g.no_decay).emplace_back(name, p);
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
