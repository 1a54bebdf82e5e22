#include "autograd/gradcheck.h"

#include <cmath>
#include <sstream>

#include "autograd/node.h"

namespace attic::autograd {

// The storage element behind logical element k (row-major) of a strided CPU tensor.
static double& element(const Tensor& t, int64_t k) {
  int64_t off = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    off += (k % t.size(d)) * t.stride(d);
    k /= t.size(d);
  }
  return t.data_ptr<double>()[off];
}

static std::string index_str(const Shape& shape, int64_t k) {
  Shape idx(shape.size());
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    idx[d] = k % shape[d];
    k /= shape[d];
  }
  return str(idx);
}

bool gradcheck(const std::function<Tensor(const std::vector<Tensor>&)>& f,
               const std::vector<Tensor>& inputs, GradcheckOptions opt) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& x = inputs[i];
    if (!x.defined() || !x.requires_grad()) continue;
    ATTIC_CHECK(x.dtype() == kFloat64, "gradcheck: input ", i, " has dtype ",
                dtype_name(x.dtype()), "; gradcheck needs float64 inputs");
    ATTIC_CHECK(x.is_leaf(), "gradcheck: input ", i, " must be a leaf tensor");
    for (int64_t d = 0; d < x.dim(); ++d)
      ATTIC_CHECK(x.stride(d) != 0 || x.size(d) == 1, "gradcheck: input ", i,
                  " is an expanded view (stride 0 in dim ", d, "); perturbing one element "
                  "would move several");
  }

  Tensor out = f(inputs);
  ATTIC_CHECK(out.dtype() == kFloat64, "gradcheck: the output has dtype ",
              dtype_name(out.dtype()), "; gradcheck needs float64");
  const std::string op = out.grad_fn() ? out.grad_fn()->name() : "(no grad_fn)";
  const int64_t n_out = out.numel();

  // Analytical Jacobian, one row per output element: backward of a one-hot grad_output.
  std::vector<std::vector<std::vector<double>>> analytical(inputs.size());
  for (int64_t j = 0; j < n_out; ++j) {
    for (const Tensor& x : inputs)
      if (x.defined()) x.set_grad(Tensor());
    if (out.requires_grad()) {
      Tensor onehot = zeros(out.shape(), kFloat64);
      onehot.data_ptr<double>()[j] = 1.0;
      out.backward(onehot, /*retain_graph=*/true);
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Tensor& x = inputs[i];
      if (!x.defined() || !x.requires_grad()) continue;
      std::vector<double> row(size_t(x.numel()), 0.0);
      if (x.grad().defined()) row = x.grad().contiguous().to_vector<double>();
      analytical[i].push_back(std::move(row));
    }
  }
  for (const Tensor& x : inputs)
    if (x.defined()) x.set_grad(Tensor());

  // Numerical Jacobian, one column per input element, compared as it is made.
  NoGradGuard no_grad;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& x = inputs[i];
    if (!x.defined() || !x.requires_grad()) continue;
    for (int64_t k = 0; k < x.numel(); ++k) {
      double& v = element(x, k);
      const double orig = v;
      v = orig + opt.eps;
      std::vector<double> plus = f(inputs).contiguous().to_vector<double>();
      v = orig - opt.eps;
      std::vector<double> minus = f(inputs).contiguous().to_vector<double>();
      v = orig;
      for (int64_t j = 0; j < n_out; ++j) {
        const double numerical = (plus[j] - minus[j]) / (2 * opt.eps);
        const double a = analytical[i][j][k];
        if (!(std::abs(a - numerical) <= opt.atol + opt.rtol * std::abs(numerical))) {
          std::ostringstream os;
          os << "gradcheck: " << op << ": d output" << index_str(out.shape(), j)
             << " / d input " << i << index_str(x.shape(), k) << ": numerical " << numerical
             << ", analytical " << a;
          throw Error(os.str());
        }
      }
    }
  }
  return true;
}

}  // namespace attic::autograd
