// Grad mode: whether ops record the graph. On by default, per thread.
#pragma once

namespace attic::autograd {

struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

// RAII: nothing inside records a graph (optimizer steps, evaluation, sampling).
class NoGradGuard {
 public:
  NoGradGuard() : prev_(GradMode::is_enabled()) { GradMode::set_enabled(false); }
  ~NoGradGuard() { GradMode::set_enabled(prev_); }
  NoGradGuard(const NoGradGuard&) = delete;
  NoGradGuard& operator=(const NoGradGuard&) = delete;

 private:
  bool prev_;
};

// RAII: turns recording back on inside a NoGradGuard (used by create_graph).
class EnableGradGuard {
 public:
  explicit EnableGradGuard(bool enabled = true) : prev_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~EnableGradGuard() { GradMode::set_enabled(prev_); }
  EnableGradGuard(const EnableGradGuard&) = delete;
  EnableGradGuard& operator=(const EnableGradGuard&) = delete;

 private:
  bool prev_;
};

}  // namespace attic::autograd

namespace attic {
using autograd::NoGradGuard;
}
