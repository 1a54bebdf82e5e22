#include "nn/module.h"

#include <algorithm>

namespace attic::nn {

static void check_name(const char* what, const std::string& name) {
  ATTIC_CHECK(!name.empty() && name.find('.') == std::string::npos, what, ": name '", name,
              "' must be non-empty and contain no '.'");
}

template <class List>
static bool has_name(const List& list, const std::string& name) {
  return std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.first == name; });
}

static bool has_name_in(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

Tensor Module::register_parameter(const std::string& name, Tensor t, bool requires_grad) {
  check_name("register_parameter", name);
  ATTIC_CHECK(t.defined(), "register_parameter: '", name, "' is an undefined tensor");
  ATTIC_CHECK(!has_name(params_, name) && !has_name(buffers_, name) && !has_name(children_, name),
              "register_parameter: '", name, "' is already registered");
  ATTIC_CHECK(t.is_leaf(), "register_parameter: '", name, "' must be a leaf tensor (detach() it)");
  if (requires_grad) t.requires_grad_(true);
  params_.emplace_back(name, t);
  return t;
}

Tensor Module::register_buffer(const std::string& name, Tensor t, bool persistent) {
  check_name("register_buffer", name);
  ATTIC_CHECK(t.defined(), "register_buffer: '", name, "' is an undefined tensor");
  ATTIC_CHECK(!has_name(params_, name) && !has_name(buffers_, name) && !has_name(children_, name),
              "register_buffer: '", name, "' is already registered");
  buffers_.emplace_back(name, t);
  if (!persistent) non_persistent_.push_back(name);
  return t;
}

Tensor Module::replace_parameter(const std::string& name, Tensor t) {
  for (auto& [n, p] : params_) {
    if (n != name) continue;
    ATTIC_CHECK(t.defined() && t.shape() == p.shape(), "replace_parameter: '", name,
                "' has shape ", str(p.shape()), ", the replacement ",
                t.defined() ? str(t.shape()) : std::string("is undefined"));
    p = t;
    return t;
  }
  fail("replace_parameter: no parameter named '", name, "'");
}

void Module::add_child(const std::string& name, std::shared_ptr<Module> m) {
  check_name("register_module", name);
  ATTIC_CHECK(m != nullptr, "register_module: '", name, "' is null");
  ATTIC_CHECK(!has_name(params_, name) && !has_name(buffers_, name) && !has_name(children_, name),
              "register_module: '", name, "' is already registered");
  children_.emplace_back(name, std::move(m));
}

void Module::collect(const std::string& prefix, bool recurse, bool buffers, bool dedup,
                     NamedTensors& out, std::vector<const TensorImpl*>& seen,
                     bool persistent_only) const {
  for (const auto& [name, t] : buffers ? buffers_ : params_) {
    if (!t.defined()) continue;
    if (persistent_only && has_name_in(non_persistent_, name)) continue;
    if (dedup) {
      if (std::find(seen.begin(), seen.end(), t.impl()) != seen.end()) continue;
      seen.push_back(t.impl());
    }
    out.emplace_back(prefix + name, t);
  }
  if (!recurse) return;
  for (const auto& [name, child] : children_)
    child->collect(prefix + name + ".", true, buffers, dedup, out, seen, persistent_only);
}

NamedTensors Module::named_parameters(bool recurse) const {
  NamedTensors out;
  std::vector<const TensorImpl*> seen;
  collect("", recurse, false, true, out, seen);
  return out;
}

std::vector<Tensor> Module::parameters(bool recurse) const {
  std::vector<Tensor> out;
  for (auto& [name, t] : named_parameters(recurse)) out.push_back(t);
  return out;
}

NamedTensors Module::named_buffers(bool recurse) const {
  NamedTensors out;
  std::vector<const TensorImpl*> seen;
  collect("", recurse, true, true, out, seen);
  return out;
}

std::vector<std::pair<std::string, std::shared_ptr<Module>>> Module::named_children() const {
  return children_;
}

void Module::train(bool on) {
  training_ = on;
  for (auto& [name, child] : children_) child->train(on);
}

void Module::zero_grad() {
  for (Tensor& p : parameters()) p.set_grad(Tensor());
}

void Module::to(Device device) {
  NamedTensors all = named_parameters();
  NamedTensors bufs = named_buffers();
  all.insert(all.end(), bufs.begin(), bufs.end());
  for (auto& [name, t] : all) {
    if (t.device() == device) continue;
    Tensor moved = t.detach().to(device);
    // Swap the storage under the existing TensorImpl, so every handle follows the move.
    t.impl()->storage = moved.impl()->storage;
    t.impl()->offset = moved.impl()->offset;
    t.impl()->strides = moved.impl()->strides;
    t.impl()->device = device;
    t.impl()->grad.reset();
  }
}

StateDict Module::state_dict() const {
  NamedTensors all;
  std::vector<const TensorImpl*> seen;
  collect("", true, false, false, all, seen);
  collect("", true, true, false, all, seen, /*persistent_only=*/true);
  StateDict dict;
  for (auto& [name, t] : all) dict.emplace(name, t);
  return dict;
}

void Module::load_state_dict(const StateDict& dict, bool strict) {
  const StateDict mine = state_dict();
  // Tied tensors: one TensorImpl under several names (GPT's lm_head.weight is
  // transformer.wte.weight). They hold one value, so any one of the names sets it: files
  // written without duplicates (safetensors' save_model, Hugging Face's save_pretrained)
  // keep only one of them, and the module's tie stands because values are copied into it.
  std::map<const TensorImpl*, std::vector<std::string>> names_of;
  for (const auto& [name, t] : mine) names_of[t.impl()].push_back(name);
  auto in_dict = [&](const std::string& name) { return dict.count(name) > 0; };
  if (strict) {
    for (const auto& [name, t] : dict)
      ATTIC_CHECK(mine.count(name), "load_state_dict: unexpected key '", name,
                  "' (the module has no such parameter or buffer)");
    for (const auto& [name, t] : mine) {
      const std::vector<std::string>& tied = names_of[t.impl()];
      ATTIC_CHECK(std::any_of(tied.begin(), tied.end(), in_dict), "load_state_dict: missing key '",
                  name, "'", tied.size() > 1 ? " (nor any name tied to it)" : "");
    }
  }
  // Every check before the first copy: a failed load leaves the module as it was.
  for (const auto& [name, dst] : mine) {
    auto it = dict.find(name);
    if (it == dict.end()) continue;
    const Tensor& src = it->second;
    ATTIC_CHECK(src.defined(), "load_state_dict: '", name, "' is an undefined tensor in the dict");
    ATTIC_CHECK(src.shape() == dst.shape(), "load_state_dict: '", name, "' has shape ",
                str(src.shape()), " in the dict but ", str(dst.shape()), " in the module");
    ATTIC_CHECK(src.dtype() == dst.dtype(), "load_state_dict: '", name, "' has dtype ",
                dtype_name(src.dtype()), " in the dict but ", dtype_name(dst.dtype()),
                " in the module");
    // Two names of one tied tensor must bring one value, or which one won would depend
    // on the order of the names.
    for (const std::string& other : names_of[dst.impl()]) {
      auto o = dict.find(other);
      if (other >= name || o == dict.end() || o->second.is_same(src)) continue;
      NoGradGuard no_grad;
      const Tensor differ = ne(src.detach().to(Device::CPU), o->second.detach().to(Device::CPU));
      ATTIC_CHECK(sum(differ).item<int64_t>() == 0, "load_state_dict: '", other, "' and '",
                  name, "' are one tied tensor in the module but differ in the dict");
    }
  }
  NoGradGuard no_grad;
  std::vector<const TensorImpl*> done;  // a tied tensor is copied once
  for (const auto& [name, dst] : mine) {
    auto it = dict.find(name);
    if (it == dict.end()) continue;
    if (std::find(done.begin(), done.end(), dst.impl()) != done.end()) continue;
    done.push_back(dst.impl());
    Tensor d = dst;
    d.copy_(it->second.to(dst.device()));
  }
}

int64_t Module::num_parameters() const {
  int64_t n = 0;
  for (auto& [name, t] : named_parameters()) n += t.numel();
  return n;
}

}  // namespace attic::nn
