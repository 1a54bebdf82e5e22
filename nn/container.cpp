#include "nn/container.h"

namespace attic::nn {

Sequential::Sequential(std::initializer_list<std::shared_ptr<UnaryModule>> modules) {
  for (const auto& m : modules) push_back(m);
}

void Sequential::push_back(std::shared_ptr<UnaryModule> m) {
  register_module(std::to_string(layers_.size()), m);
  layers_.push_back(std::move(m));
}

Tensor Sequential::forward(const Tensor& x) {
  Tensor h = x;
  for (auto& m : layers_) h = m->forward(h);
  return h;
}

void ModuleList::push_back(std::shared_ptr<Module> m) {
  register_module(std::to_string(items_.size()), m);
  items_.push_back(std::move(m));
}

std::shared_ptr<Module> ModuleList::operator[](size_t i) const {
  ATTIC_CHECK(i < items_.size(), "ModuleList: index ", i, " is out of range for ", items_.size(),
              " modules");
  return items_[i];
}

}  // namespace attic::nn
