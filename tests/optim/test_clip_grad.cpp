// clip_grad_norm_: the global gradient norm, and rescaling to max_norm.
#include "tests/catch.h"

#include <cmath>

#include "helpers.h"
#include "optim/optim.h"

using namespace attic;
using namespace attic::testing;
using optim::clip_grad_norm_;

namespace {

// A float64 leaf of shape with gradient g (row-major).
Tensor with_grad(const Shape& shape, std::vector<double> g) {
  Tensor p = zeros(shape, kFloat64).requires_grad_();
  p.set_grad(from_vector(g, shape));
  return p;
}

}  // namespace

TEST_CASE("clip_grad_norm_: returns the global norm and rescales to max_norm", "[optim]") {
  // Gradients [3, 4] and [[12]]: total = √(9 + 16 + 144) = √169 = 13.
  // max_norm 1: every gradient *= 1 / (13 + 1e-6), so the new total is 13 / (13 + 1e-6) ≈ 1.
  Tensor a = with_grad({2}, {3, 4});
  Tensor b = with_grad({1, 1}, {12});
  CHECK(clip_grad_norm_({a, b}, 1.0) == Approx(13.0).epsilon(1e-12));
  const double c = 1.0 / (13.0 + 1e-6);
  CHECK_THAT(values(a.grad()), ApproxValues({3 * c, 4 * c}, 1e-12));
  CHECK_THAT(values(b.grad()), ApproxValues({12 * c}, 1e-12));
  // Measured again, the norm is max_norm (up to the 1e-6), and the direction is kept.
  CHECK(clip_grad_norm_({a, b}, 1.0) == Approx(1.0).epsilon(1e-6));
  CHECK(values(a.grad())[1] / values(a.grad())[0] == Approx(4.0 / 3.0).epsilon(1e-12));
}

TEST_CASE("clip_grad_norm_: a norm below max_norm leaves the gradients as they are",
          "[optim]") {
  Tensor a = with_grad({2}, {3, 4});  // norm 5
  CHECK(clip_grad_norm_({a}, 20.0) == Approx(5.0).epsilon(1e-12));
  CHECK(values(a.grad()) == std::vector<double>{3, 4});
  CHECK(clip_grad_norm_({a}, 5.5) == Approx(5.0).epsilon(1e-12));
  CHECK(values(a.grad()) == std::vector<double>{3, 4});
}

TEST_CASE("clip_grad_norm_: parameters without a gradient are left out", "[optim]") {
  Tensor a = with_grad({2}, {6, 8});  // norm 10
  Tensor none = zeros({3}, kFloat64).requires_grad_();
  CHECK(clip_grad_norm_({none, a}, 5.0) == Approx(10.0).epsilon(1e-12));
  CHECK_THAT(values(a.grad()), ApproxValues({3, 4}, 1e-6));  // scaled by 5 / (10 + 1e-6)
  CHECK_FALSE(none.grad().defined());
  CHECK(clip_grad_norm_({none}, 1.0) == 0.0);
  CHECK(clip_grad_norm_({}, 1.0) == 0.0);
}

TEST_CASE("clip_grad_norm_: float32 gradients from backward, and bad arguments", "[optim]") {
  // loss = Σ 3 w with w of 4 elements: grad = [3, 3, 3, 3], norm √36 = 6; max_norm 3 halves it.
  Tensor w = ones({4}).requires_grad_();
  sum(w * 3).backward();
  CHECK(clip_grad_norm_({w}, 3.0) == Approx(6.0).epsilon(1e-7));
  CHECK(w.grad().dtype() == kFloat32);
  CHECK_THAT(values(w.grad()), ApproxValues({1.5, 1.5, 1.5, 1.5}, 1e-6));

  CHECK(error_message([&] { clip_grad_norm_({w}, -1.0); }) ==
        "clip_grad_norm_: max_norm must be >= 0, got -1");
  CHECK(error_message([&] { clip_grad_norm_({w, Tensor()}, 1.0); }) ==
        "clip_grad_norm_: parameter 1 is undefined");
}
