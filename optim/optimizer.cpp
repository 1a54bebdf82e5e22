#include "optim/optimizer.h"

#include <limits>
#include <algorithm>
#include <cmath>
#include <set>

#include "autograd/node.h"

namespace attic::optim {

// lr and weight_decay: >= 0, and finite as the float32 the update computes in.
void check_non_negative(const char* optimizer, const char* option, double value) {
  ATTIC_CHECK(value >= 0.0, optimizer, ": invalid ", option, " ", value, " (must be >= 0)");
  ATTIC_CHECK(value <= double(std::numeric_limits<float>::max()), optimizer, ": invalid ", option, " ", value,
              " (must be at most 3.4e38, the largest float32)");
}

Optimizer::Optimizer(const char* name, std::vector<ParamGroup> groups, double default_lr,
                     double default_weight_decay)
    : name_(name), default_lr_(default_lr), default_weight_decay_(default_weight_decay) {
  check_non_negative(name_, "lr", default_lr);
  check_non_negative(name_, "weight_decay", default_weight_decay);
  size_t total = 0;
  for (const ParamGroup& g : groups) total += g.params.size();
  ATTIC_CHECK(total > 0, name_, ": got an empty parameter list");
  for (ParamGroup& g : groups) add_param_group(std::move(g));
}

void Optimizer::check_group(const ParamGroup& group, size_t index) const {
  check_non_negative(name_, "lr", group.lr);
  check_non_negative(name_, "weight_decay", group.weight_decay);
  for (size_t i = 0; i < group.params.size(); ++i) {
    const Tensor& p = group.params[i];
    ATTIC_CHECK(p.defined(), name_, ": parameter ", i, " of group ", index,
                " is an undefined tensor");
    ATTIC_CHECK(p.is_leaf(), name_, ": parameter ", i, " of group ", index,
                " is not a leaf (it was made by ", p.is_leaf() ? "" : p.grad_fn()->name(),
                "); an optimizer can only update leaves");
    ATTIC_CHECK(is_floating(p.dtype()) && !is_reduced_float(p.dtype()), name_, ": parameter ", i,
                " of group ", index, " has dtype ", dtype_name(p.dtype()), "; parameters must be "
                "float32 or float64 (for bfloat16 products, keep float32 parameters and use autocast)");
    // State is keyed by the tensor, so one tensor in two places would be updated twice.
    for (const ParamGroup& other : groups_)
      for (const Tensor& q : other.params)
        ATTIC_CHECK(!q.is_same(p), name_, ": a parameter appears in more than one group");
    for (size_t j = 0; j < i; ++j)
      ATTIC_CHECK(!group.params[j].is_same(p), name_, ": parameters ", j, " and ", i,
                  " of group ", index, " are the same tensor");
  }
}

void Optimizer::add_param_group(ParamGroup group) {
  if (std::isnan(group.lr)) group.lr = default_lr_;
  if (std::isnan(group.weight_decay)) group.weight_decay = default_weight_decay_;
  check_group(group, groups_.size());
  groups_.push_back(std::move(group));
}

void Optimizer::zero_grad() {
  for (ParamGroup& g : groups_)
    for (Tensor& p : g.params) p.set_grad(Tensor());
}

// A copy of t on the CPU, outside any graph.
static Tensor cpu_copy(const Tensor& t) {
  NoGradGuard no_grad;
  return t.device() == Device::CPU ? t.clone() : t.to(Device::CPU);
}

nn::StateDict Optimizer::state_dict() const {
  nn::StateDict dict;
  size_t index = 0;
  for (size_t g = 0; g < groups_.size(); ++g) {
    const ParamGroup& group = groups_[g];
    const std::string prefix = "group." + std::to_string(g) + ".";
    dict[prefix + "lr"] = scalar_tensor(group.lr, kFloat64);
    dict[prefix + "weight_decay"] = scalar_tensor(group.weight_decay, kFloat64);
    dict[prefix + "num_params"] = scalar_tensor(double(group.params.size()), kInt64);
    for (const Tensor& p : group.params) {
      auto it = state_.find(p.impl());
      if (it != state_.end()) {
        const std::string s = "state." + std::to_string(index) + ".";
        dict[s + "step"] = scalar_tensor(double(it->second.step), kInt64);
        for (const auto& [name, buf] : it->second.buffers) dict[s + name] = cpu_copy(buf);
      }
      ++index;
    }
  }
  return dict;
}

namespace {

// "state.3.exp_avg" -> {"state", 3, "exp_avg"}; kind is empty when key has another form.
struct Key {
  std::string kind;
  size_t index = 0;
  std::string field;
};

Key parse_key(const std::string& key) {
  const size_t a = key.find('.');
  const size_t b = a == std::string::npos ? a : key.find('.', a + 1);
  if (b == std::string::npos || b == a + 1 || b + 1 == key.size()) return {};
  const std::string number = key.substr(a + 1, b - a - 1);
  if (!std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      number.size() > 9)
    return {};
  return {key.substr(0, a), size_t(std::stoul(number)), key.substr(b + 1)};
}

// The one number of a 0-d tensor of the dict.
double scalar_of(const char* opt, const std::string& key, const Tensor& t) {
  ATTIC_CHECK(t.defined() && t.dim() == 0, opt, ": load_state_dict: '", key,
              "' must be a 0-d tensor, got shape ", t.defined() ? str(t.shape()) : "undefined");
  return t.item<double>();
}

}  // namespace

void Optimizer::load_state_dict(const nn::StateDict& dict) {
  const char* op = name_;
  std::vector<const Tensor*> params;
  for (const ParamGroup& g : groups_)
    for (const Tensor& p : g.params) params.push_back(&p);
  const std::vector<std::string> buffers = buffer_names();

  // 1. Every key is known, and every group and parameter it names exists.
  std::set<size_t> group_keys, stepped;
  for (const auto& [key, t] : dict) {
    const Key k = parse_key(key);
    if (k.kind == "group") {
      ATTIC_CHECK(k.field == "lr" || k.field == "weight_decay" || k.field == "num_params", op,
                  ": load_state_dict: unexpected key '", key, "'");
      ATTIC_CHECK(k.index < groups_.size(), op, ": load_state_dict: '", key,
                  "' names group ", k.index, " but the optimizer has ", groups_.size(),
                  " groups");
      group_keys.insert(k.index);
    } else if (k.kind == "state") {
      ATTIC_CHECK(k.field == "step" ||
                      std::find(buffers.begin(), buffers.end(), k.field) != buffers.end(),
                  op, ": load_state_dict: unexpected key '", key, "'");
      ATTIC_CHECK(k.index < params.size(), op, ": load_state_dict: '", key,
                  "' names parameter ", k.index, " but the optimizer has ", params.size(),
                  " parameters");
      stepped.insert(k.index);
    } else {
      fail(op, ": load_state_dict: unexpected key '", key, "'");
    }
  }

  // 2. Every group is there, with its parameter count.
  ATTIC_CHECK(group_keys.size() == groups_.size(), op, ": load_state_dict: the dict has ",
              group_keys.size(), " parameter groups but the optimizer has ", groups_.size());
  for (size_t g = 0; g < groups_.size(); ++g) {
    const std::string prefix = "group." + std::to_string(g) + ".";
    for (const char* field : {"lr", "weight_decay", "num_params"})
      ATTIC_CHECK(dict.count(prefix + field), op, ": load_state_dict: missing key '",
                  prefix + field, "'");
    const double n = scalar_of(op, prefix + "num_params", dict.at(prefix + "num_params"));
    ATTIC_CHECK(n == double(groups_[g].params.size()), op, ": load_state_dict: group ", g,
                " has ", n, " parameters in the dict but ", groups_[g].params.size(),
                " in the optimizer");
    check_non_negative(op, "lr", scalar_of(op, prefix + "lr", dict.at(prefix + "lr")));
    check_non_negative(op, "weight_decay",
                       scalar_of(op, prefix + "weight_decay", dict.at(prefix + "weight_decay")));
  }

  // 3. Each parameter with state has all of it, shaped like the parameter.
  for (size_t i : stepped) {
    const std::string s = "state." + std::to_string(i) + ".";
    ATTIC_CHECK(dict.count(s + "step"), op, ": load_state_dict: missing key '", s, "step'");
    const double step = scalar_of(op, s + "step", dict.at(s + "step"));
    // A parameter has state only once it has been updated, so its step is at least 1 (and
    // Adam divides by 1 - beta^step, which step 0 makes 0). 2^53 is the last count a double
    // holds exactly; the int64 it is stored in must not overflow either.
    ATTIC_CHECK(step >= 1 && step <= 9007199254740992.0 && step == std::floor(step), op,
                ": load_state_dict: '", s, "step' must be a whole number from 1 to 2^53, got ", step);
    const Tensor& p = *params[i];
    for (const std::string& name : buffers) {
      auto it = dict.find(s + name);
      ATTIC_CHECK(it != dict.end(), op, ": load_state_dict: missing key '", s, name, "'");
      const Tensor& t = it->second;
      ATTIC_CHECK(t.defined() && t.shape() == p.shape(), op, ": load_state_dict: '", s, name,
                  "' has shape ", t.defined() ? str(t.shape()) : "undefined",
                  " but parameter ", i, " has shape ", str(p.shape()));
      ATTIC_CHECK(t.dtype() == p.dtype(), op, ": load_state_dict: '", s, name, "' has dtype ",
                  dtype_name(t.dtype()), " but parameter ", i, " has dtype ",
                  dtype_name(p.dtype()));
    }
  }

  // 4. All checked: replace the state.
  NoGradGuard no_grad;
  for (size_t g = 0; g < groups_.size(); ++g) {
    const std::string prefix = "group." + std::to_string(g) + ".";
    groups_[g].lr = dict.at(prefix + "lr").item<double>();
    groups_[g].weight_decay = dict.at(prefix + "weight_decay").item<double>();
  }
  state_.clear();
  for (size_t i : stepped) {
    const std::string s = "state." + std::to_string(i) + ".";
    const Tensor& p = *params[i];
    ParamState& st = state_[p.impl()];
    st.step = int64_t(dict.at(s + "step").item<double>());
    for (const std::string& name : buffers)
      st.buffers[name] = dict.at(s + name).to(p.device()).clone();
  }
}

}  // namespace attic::optim
