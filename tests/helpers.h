// Shared helpers for attic's Catch2 tests.
#pragma once

#include "tests/catch.h"

#include <functional>
#include <string>
#include <vector>

#include "autograd/gradcheck.h"
#include "ops/ops.h"
#include "tensor/threads.h"

namespace attic::testing {

// The tensor's values as float64, row-major, for comparisons with hand-worked numbers.
inline std::vector<double> values(const Tensor& t) { return t.to_vector<double>(); }

// CHECK_THAT(values(y), ApproxValues({1.0, 2.5}))
inline auto ApproxValues(
    const std::vector<double>& expected, double eps = 1e-6) {
  return Catch::Matchers::Approx(expected).epsilon(eps).margin(eps);
}

// A float64 leaf of the given shape, filled with N(0, 1) draws, that requires grad.
inline Tensor leaf64(const Shape& shape) {
  return randn(shape, kFloat64).requires_grad_();
}

// A float64 leaf with the given shape whose memory is NOT contiguous: it is the transpose
// of a freshly drawn tensor with the last two dims swapped. Needs at least 2 dims.
inline Tensor noncontiguous_leaf64(const Shape& shape) {
  Shape swapped = shape;
  std::swap(swapped[swapped.size() - 1], swapped[swapped.size() - 2]);
  Tensor t = randn(swapped, kFloat64).transpose(-1, -2).detach().requires_grad_();
  REQUIRE_FALSE(t.is_contiguous());
  return t;
}

// gradcheck that reports the failure message through Catch instead of an exception.
inline bool gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& f,
                      const std::vector<Tensor>& inputs,
                      autograd::GradcheckOptions options = {}) {
  try {
    return autograd::gradcheck(f, inputs, options);
  } catch (const Error& e) {
    FAIL_CHECK(e.what());
    return false;
  }
}

// Sets the thread count for one scope and restores the old one after.
class ThreadCount {
 public:
  explicit ThreadCount(int n) : saved_(num_threads()) { set_num_threads(n); }
  ~ThreadCount() { set_num_threads(saved_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int saved_;
};

// The message of the attic::Error that f throws ("" if it throws none).
// How many times `what` occurs in s (overlapping occurrences counted): the SVG tests count
// the elements a picture holds.
inline int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

inline std::string error_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace attic::testing
