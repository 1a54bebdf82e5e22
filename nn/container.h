// Containers: Sequential chains unary modules; ModuleList holds modules by index
// (children named "0", "1", ... so parameters read "h.0.attn.c_attn.weight").
#pragma once

#include <memory>
#include <vector>

#include "nn/module.h"

namespace attic::nn {

class Sequential : public UnaryModule {
 public:
  Sequential() = default;
  Sequential(std::initializer_list<std::shared_ptr<UnaryModule>> modules);
  void push_back(std::shared_ptr<UnaryModule> m);
  // x -> m_n(... m_1(x))
  Tensor forward(const Tensor& x) override;
  size_t size() const { return layers_.size(); }

 private:
  std::vector<std::shared_ptr<UnaryModule>> layers_;
};

class ModuleList : public Module {
 public:
  void push_back(std::shared_ptr<Module> m);
  size_t size() const { return items_.size(); }
  std::shared_ptr<Module> operator[](size_t i) const;
  // The i-th module as its concrete type: list.at<Block>(0)->forward(x).
  template <class M>
  std::shared_ptr<M> at(size_t i) const {
    auto p = std::dynamic_pointer_cast<M>((*this)[i]);
    ATTIC_CHECK(p != nullptr, "ModuleList: item ", i, " is not of the requested type");
    return p;
  }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }

 private:
  std::vector<std::shared_ptr<Module>> items_;
};

}  // namespace attic::nn
