// Printing, in PyTorch's format:
//   tensor([[1.0000, 2.5000],
//           [3.0000, 4.0000]], requires_grad=true)
//   tensor([3.], grad_fn=<AddBackward>)
//   tensor([ true, false])          bool, in C++'s words, as requires_grad=true is
#include <cmath>
#include <cstdio>
#include <ostream>

#include "tensor/tensor.h"

namespace attic {

namespace {

constexpr int64_t kSummarizeAbove = 1000;  // elements; bigger tensors print "..." rows
constexpr int64_t kEdgeItems = 3;

struct Formatter {
  enum Mode { Boolean, Integer, WholeFloat, Fixed, Scientific } mode = Fixed;
  int width = 1;

  std::string format(double v) const {
    char buf[64];
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    switch (mode) {
      case Boolean: return v != 0 ? "true" : "false";
      case Integer: std::snprintf(buf, sizeof buf, "%lld", (long long)v); break;
      case WholeFloat: std::snprintf(buf, sizeof buf, "%.0f.", v); break;
      case Fixed: std::snprintf(buf, sizeof buf, "%.4f", v); break;
      case Scientific: std::snprintf(buf, sizeof buf, "%.4e", v); break;
    }
    return buf;
  }
};

// Chooses one format for all values, as PyTorch does: whole numbers print as "2.",
// very large or very small magnitudes switch to scientific notation.
Formatter choose_format(const std::vector<double>& v, DType dtype) {
  Formatter f;
  if (dtype == DType::Bool) {
    f.mode = Formatter::Boolean;
  } else if (dtype == DType::Int64) {
    f.mode = Formatter::Integer;
  } else {
    bool whole = true;
    double max_abs = 0, min_abs = INFINITY;
    for (double x : v) {
      if (!std::isfinite(x)) continue;
      whole = whole && x == std::floor(x);
      max_abs = std::max(max_abs, std::abs(x));
      if (x != 0) min_abs = std::min(min_abs, std::abs(x));
    }
    if (whole && max_abs < 1e8) f.mode = Formatter::WholeFloat;
    else if (max_abs >= 1e8 || min_abs < 1e-4 || max_abs / min_abs > 1e6) f.mode = Formatter::Scientific;
    else f.mode = Formatter::Fixed;
  }
  for (double x : v) f.width = std::max(f.width, int(f.format(x).size()));
  return f;
}

// Prints dims [d, ndim) of the block starting at flat element `base`, PyTorch-style.
void print_block(std::ostream& os, const std::vector<double>& v, const Shape& shape,
                 const Shape& strides, size_t d, int64_t base, const Formatter& f,
                 int indent, bool summarize) {
  if (d == shape.size()) {
    std::string s = f.format(v[size_t(base)]);
    os << std::string(size_t(f.width) - s.size(), ' ') << s;
    return;
  }
  const int64_t n = shape[d];
  const bool cut = summarize && n > 2 * kEdgeItems;
  const bool last = d + 1 == shape.size();
  os << "[";
  for (int64_t i = 0; i < n; ++i) {
    if (cut && i == kEdgeItems) {
      os << (last ? "..., " : "...,\n" + std::string(size_t(indent + 1), ' '));
      i = n - kEdgeItems;
    }
    print_block(os, v, shape, strides, d + 1, base + i * strides[d], f, indent + 1, summarize);
    if (i + 1 < n) {
      if (last) {
        os << ", ";
      } else {
        os << "," << std::string(shape.size() - d - 1, '\n') << std::string(size_t(indent + 1), ' ');
      }
    }
  }
  os << "]";
}

}  // namespace

std::string Tensor::str() const {
  if (!defined()) return "tensor(undefined)";
  const std::vector<double> v = to_vector<double>();
  const bool summarize = numel() > kSummarizeAbove;
  std::vector<double> shown;
  if (summarize) {  // choose the format from the printed values only
    shown.reserve(size_t(2 * kEdgeItems));
    shown.insert(shown.end(), v.begin(), v.begin() + kEdgeItems);
    shown.insert(shown.end(), v.end() - kEdgeItems, v.end());
  }
  const Formatter f = choose_format(summarize ? shown : v, dtype());
  std::ostringstream os;
  os << "tensor(";
  if (dim() == 0) os << f.format(v[0]);
  else if (numel() == 0) os << "[]";
  else print_block(os, v, shape(), contiguous_strides(shape()), 0, 0, f, 7, summarize);
  if (numel() == 0 && dim() != 1) os << ", size=" << attic::str(shape());
  if (device() != Device::CPU) os << ", device='" << device_name(device()) << "'";
  if (dtype() == DType::Float64 || is_reduced_float(dtype())) os << ", dtype=" << dtype_name(dtype());
  if (grad_fn()) os << ", grad_fn=<" << autograd::node_name(*grad_fn()) << ">";
  else if (requires_grad()) os << ", requires_grad=true";
  os << ")";
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.str(); }

}  // namespace attic
