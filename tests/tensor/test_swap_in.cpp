// The kernels' swap-in points (tensor/swap_in.h): a kernel installed there takes the ops'
// calls to the CPU backend, may hand one back, and is gone when its guard goes.
#include "helpers.h"
#include "tensor/swap_in.h"

using namespace attic;
using attic::testing::values;

namespace {

int64_t binary_calls = 0;
// Writes a - b for every op it takes, so that a call it took is visible in the result; takes
// only Add, and hands every other op back.
bool minus_for_add(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) {
  if (op != BinaryOp::Add || a.dtype != kFloat32) return false;
  ++binary_calls;
  float* o = out.ptr<float>();
  for (int64_t i = 0; i < out.numel(); ++i) o[i] = a.ptr<float>()[i] - b.ptr<float>()[i];
  return true;
}

int64_t adam_calls = 0;
bool halve(const KTensor& p, const KTensor&, const KTensor&, const KTensor&, const AdamStep&) {
  ++adam_calls;
  for (int64_t i = 0; i < p.numel(); ++i) p.ptr<float>()[i] *= 0.5f;
  return true;
}

}  // namespace

TEST_CASE("a swapped-in binary kernel takes add, hands back mul, and goes with its guard",
          "[swap_in]") {
  const Tensor a = tensor({5, 7}), b = tensor({1, 2});
  binary_calls = 0;
  {
    BinarySwap swap(minus_for_add);
    CHECK(values(add(a, b)) == std::vector<double>{4, 5});  // through minus_for_add
    CHECK(values(mul(a, b)) == std::vector<double>{5, 14});  // handed back to the backend
    Tensor c = a.clone();
    c.add_(b);  // the in-place add calls the same kernel
    CHECK(values(c) == std::vector<double>{4, 5});
    CHECK(values(add(a.to(kFloat64), b.to(kFloat64))) == std::vector<double>{6, 9});
  }
  CHECK(binary_calls == 2);
  CHECK(values(add(a, b)) == std::vector<double>{6, 9});  // the backend's again
  CHECK(binary_calls == 2);
}

TEST_CASE("swap-in guards nest: each puts back the kernel before it", "[swap_in]") {
  CHECK(swap_in_binary(nullptr) == nullptr);
  {
    BinarySwap outer(minus_for_add);
    {
      BinarySwap inner(nullptr);
      CHECK(values(add(tensor({1}), tensor({1}))) == std::vector<double>{2});
    }
    CHECK(values(add(tensor({1}), tensor({1}))) == std::vector<double>{0});
  }
  CHECK(swap_in_binary(nullptr) == nullptr);
}

TEST_CASE("a swapped-in Adam kernel runs each parameter of an optimizer step", "[swap_in]") {
  const Tensor p = tensor({2, 4}), q = tensor({8}), g = tensor({1, 1}), gq = tensor({1});
  const Tensor m = zeros({2}), v = zeros({2}), mq = zeros({1}), vq = zeros({1});
  AdamStep s;
  s.lr = 0.1;
  adam_calls = 0;
  {
    AdamSwap swap(halve);
    adam_steps_({p, q}, {g, gq}, {m, mq}, {v, vq}, {s, s});
    adam_step_(p, g, m, v, s);
  }
  CHECK(adam_calls == 3);
  CHECK(values(p) == std::vector<double>{0.5, 1});
  CHECK(values(q) == std::vector<double>{4});
}
