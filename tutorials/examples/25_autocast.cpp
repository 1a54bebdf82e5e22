// Chapter 25: autocast. Inside an AutocastGuard a float32 matmul rounds its two operands to
// bfloat16 as the kernel reads them and sums the products in float32; its result is float32,
// and so is everything that is not a matrix product. The backward of a product made under
// the guard rounds too, wherever backward() runs.
//
// The values are chosen so that the rounding shows and nothing else does: 1 + 2^-8 is a tie
// that rounds to 1 in bfloat16, 3 + 2^-7 rounds to 3, and every other value, product and sum
// here is exact in float32, so the digits printed do not depend on the order of the sums.
// They are printed in full (%.17g shows every digit of these short binary fractions).
#include <cstdio>
#include <string>
#include <vector>

#include "nn/linear.h"
#include "ops/ops.h"

using namespace attic;

void print(const char* what, const Tensor& t) {
  std::printf("%-34s %-8s", what, dtype_name(t.dtype()));
  for (double v : t.to_vector<double>()) std::printf(" %.17g", v);
  std::printf("\n");
}

// t rounded to bfloat16 and back: the operand that a product under autocast reads.
Tensor rounded(const Tensor& t) { return t.detach().to(kBFloat16).to(kFloat32); }

bool equal(const Tensor& a, const Tensor& b) { return a.to_vector<double>() == b.to_vector<double>(); }

int main() {
  const float tie = 1.0f + 0x1p-8f;  // 1.00390625

  // 1. One product, outside and inside the guard.
  const Tensor a = from_vector<float>({tie, 2.0f}, {1, 2});
  const Tensor b = from_vector<float>({3.0f + 0x1p-7f, 1.0f}, {2, 1});
  print("a", a);
  print("b", b);
  print("a @ b, float32", matmul(a, b));
  {
    AutocastGuard cast(kBFloat16);
    std::printf("inside the guard: autocast %s, dtype %s\n", Autocast::is_enabled() ? "on" : "off",
                dtype_name(Autocast::dtype()));
    print("a @ b, autocast: 1 * 3 + 2 * 1", matmul(a, b));
    print("a * a, elementwise: not rounded", a * a);
  }
  std::printf("outside: autocast %s\n\n", Autocast::is_enabled() ? "on" : "off");

  // 2. A Linear layer, y = x W.t() + bias, forward under the guard and backward after it.
  nn::Linear lin(3, 2);
  {
    NoGradGuard no_grad;
    lin.weight.copy_(from_vector<float>({tie, 0.5f, -1.0f, 2.0f, 3.0f + 0x1p-7f, 0.25f}, {2, 3}));
    lin.bias.copy_(from_vector<float>({1.0f + 0x1p-9f, 0.0f}, {2}));
  }
  const Tensor x = from_vector<float>({1.0f, 2.0f, tie, 0.5f, tie, 2.0f}, {2, 3});
  const Tensor dy = from_vector<float>({tie, 1.0f, 1.0f, 2.0f}, {2, 2});  // the gradient of y
  Tensor y;
  {
    AutocastGuard cast(kBFloat16);
    y = lin.forward(x);
  }
  sum(y * dy).backward();  // d/dy of sum(y * dy) is dy
  print("y", y);
  print("rounded x @ rounded W.t() + bias", matmul(rounded(x), rounded(lin.weight).t()) + lin.bias);
  print("float32 x @ W.t() + bias", matmul(x, lin.weight.t()) + lin.bias);
  print("W.grad", lin.weight.grad());
  print("rounded dy.t() @ rounded x", matmul(rounded(dy).t(), rounded(x)));
  print("float32 dy.t() @ x", matmul(dy.t(), x));
  print("bias.grad: a sum, not a product", lin.bias.grad());
  std::printf("W.grad is the product of rounded values: %s; W stays %s, its gradient %s\n\n",
              equal(lin.weight.grad(), matmul(rounded(dy).t(), rounded(x))) ? "yes" : "no",
              dtype_name(lin.weight.dtype()), dtype_name(lin.weight.grad().dtype()));

  // 3. What autocast leaves alone, and what it refuses.
  {
    AutocastGuard cast(kBFloat16);
    const Tensor a64 = a.to(kFloat64), b64 = b.to(kFloat64);
    print("float64 a @ b under the guard", matmul(a64, b64));
  }
  try {
    AutocastGuard cast(kFloat16);
    (void)matmul(a, b);
  } catch (const Error& e) {
    std::printf("float16 autocast on the CPU:\n  %s\n", e.what());
  }
  return 0;
}
