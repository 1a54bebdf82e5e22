// SGD against updates worked out by hand. Gradients are set directly (set_grad) where that
// keeps the arithmetic short, and come from backward where the point is the training loop.
#include "tests/catch.h"

#include "helpers.h"
#include "optim/optim.h"
#include "optim_helpers.h"

using namespace attic;
using namespace attic::testing;
using optim::SGD;
using optim::SGDOptions;

TEST_CASE("SGD: plain steps follow p -= lr g", "[optim]") {
  // loss = ½ Σ p², so g = p and each step is p -= 0.1 p, i.e. p *= 0.9:
  //   [1, -2] -> [0.9, -1.8] -> [0.81, -1.62]
  Tensor p = param({1, -2});
  SGD opt({p}, SGDOptions(0.1));
  for (int i = 0; i < 2; ++i) {
    opt.zero_grad();
    (0.5 * sum(p * p)).backward();
    opt.step();
  }
  CHECK_THAT(values(p), ApproxValues({0.81, -1.62}, 1e-12));
  CHECK(p.requires_grad());
  CHECK(p.is_leaf());
}

TEST_CASE("SGD: the momentum buffer starts at the first gradient", "[optim]") {
  // m = 0.9, lr = 0.1, gradients g1 = [1, 2], g2 = [3, -1], g3 = [0, 1]:
  //   b1 = g1 = [1, 2]                          p = -0.1 [1, 2]      = [-0.1, -0.2]
  //   b2 = 0.9 [1, 2] + [3, -1] = [3.9, 0.8]    p -= 0.1 [3.9, 0.8]  -> [-0.49, -0.28]
  //   b3 = 0.9 [3.9, 0.8] + [0, 1] = [3.51, 1.72]  p -= 0.1 b3        -> [-0.841, -0.452]
  Tensor p = param({0, 0});
  SGD opt({p}, SGDOptions(0.1).momentum(0.9));
  step_with(opt, p, {1, 2});
  CHECK_THAT(values(p), ApproxValues({-0.1, -0.2}, 1e-12));
  step_with(opt, p, {3, -1});
  CHECK_THAT(values(p), ApproxValues({-0.49, -0.28}, 1e-12));
  step_with(opt, p, {0, 1});
  CHECK_THAT(values(p), ApproxValues({-0.841, -0.452}, 1e-12));
  CHECK_THAT(values(opt.state_dict().at("state.0.momentum_buffer")),
             ApproxValues({3.51, 1.72}, 1e-12));
}

TEST_CASE("SGD: dampening scales the new gradient from the second step on", "[optim]") {
  // m = 0.9, d = 0.5, lr = 0.1. As in PyTorch, the first buffer is g1 itself, undamped:
  //   b1 = [1, 2]                                    p = [-0.1, -0.2]
  //   b2 = 0.9 [1, 2] + 0.5 [3, -1] = [2.4, 1.3]     p -= 0.1 b2 -> [-0.34, -0.33]
  Tensor p = param({0, 0});
  SGD opt({p}, SGDOptions(0.1).momentum(0.9).dampening(0.5));
  step_with(opt, p, {1, 2});
  CHECK_THAT(values(p), ApproxValues({-0.1, -0.2}, 1e-12));
  step_with(opt, p, {3, -1});
  CHECK_THAT(values(p), ApproxValues({-0.34, -0.33}, 1e-12));
}

TEST_CASE("SGD: nesterov steps along g + m b", "[optim]") {
  // m = 0.9, lr = 0.1:
  //   b1 = [1, 2];  g + m b1 = [1.9, 3.8]                         p = [-0.19, -0.38]
  //   b2 = [3.9, 0.8];  g + m b2 = [3 + 3.51, -1 + 0.72] = [6.51, -0.28]
  //                                                  p -= 0.1 [6.51, -0.28] -> [-0.841, -0.352]
  Tensor p = param({0, 0});
  SGD opt({p}, SGDOptions(0.1).momentum(0.9).nesterov(true));
  step_with(opt, p, {1, 2});
  CHECK_THAT(values(p), ApproxValues({-0.19, -0.38}, 1e-12));
  step_with(opt, p, {3, -1});
  CHECK_THAT(values(p), ApproxValues({-0.841, -0.352}, 1e-12));
}

TEST_CASE("SGD: weight decay adds wd p to the gradient and leaves p.grad alone", "[optim]") {
  // lr = 0.5, wd = 0.1, g = [1, 1] both steps, p = [1, -2]:
  //   g + 0.1 p = [1.1, 0.8]          p = [1 - 0.55, -2 - 0.4]        = [0.45, -2.4]
  //   g + 0.1 p = [1.045, 0.76]       p = [0.45 - 0.5225, -2.4 - 0.38] = [-0.0725, -2.78]
  Tensor p = param({1, -2});
  SGD opt({p}, SGDOptions(0.5).weight_decay(0.1));
  step_with(opt, p, {1, 1});
  CHECK_THAT(values(p), ApproxValues({0.45, -2.4}, 1e-12));
  CHECK(values(p.grad()) == std::vector<double>{1, 1});
  step_with(opt, p, {1, 1});
  CHECK_THAT(values(p), ApproxValues({-0.0725, -2.78}, 1e-12));
}

TEST_CASE("SGD: a group's lr and weight_decay override the options", "[optim]") {
  // Group 0 takes the defaults (lr 0.1, wd 0); group 1 sets lr 0.01 and wd 0.5. g = 1 for both:
  //   a = 1 - 0.1 · 1 = 0.9
  //   b: g + 0.5 · 2 = 2,  b = 2 - 0.01 · 2 = 1.98
  Tensor a = param({1}), b = param({2});
  SGD opt({{.params = {a}}, {.params = {b}, .lr = 0.01, .weight_decay = 0.5}}, SGDOptions(0.1));
  REQUIRE(opt.param_groups().size() == 2);
  CHECK(opt.param_groups()[0].lr == 0.1);
  CHECK(opt.param_groups()[0].weight_decay == 0.0);
  CHECK(opt.param_groups()[1].lr == 0.01);
  CHECK(opt.param_groups()[1].weight_decay == 0.5);
  a.set_grad(ones({1}, kFloat64));
  b.set_grad(ones({1}, kFloat64));
  opt.step();
  CHECK_THAT(values(a), ApproxValues({0.9}, 1e-12));
  CHECK_THAT(values(b), ApproxValues({1.98}, 1e-12));

  // add_param_group: the new group takes the defaults too.
  Tensor c = param({3});
  opt.add_param_group({.params = {c}, .lr = 1.0});
  CHECK(opt.param_groups()[2].lr == 1.0);
  CHECK(opt.param_groups()[2].weight_decay == 0.0);
}

TEST_CASE("SGD: parameters without a gradient are skipped and zero_grad clears them all",
          "[optim]") {
  Tensor a = param({1, 1}), b = param({5, 5});
  SGD opt({a, b}, SGDOptions(0.1).momentum(0.9));
  a.set_grad(ones({2}, kFloat64));
  opt.step();
  CHECK_THAT(values(a), ApproxValues({0.9, 0.9}, 1e-12));
  CHECK(values(b) == std::vector<double>{5, 5});
  const nn::StateDict sd = opt.state_dict();
  CHECK(sd.count("state.0.momentum_buffer") == 1);
  CHECK(sd.count("state.1.momentum_buffer") == 0);  // b was never updated

  b.set_grad(ones({2}, kFloat64));
  opt.zero_grad();
  CHECK_FALSE(a.grad().defined());
  CHECK_FALSE(b.grad().defined());
  opt.step();  // nothing has a gradient: nothing moves
  CHECK_THAT(values(a), ApproxValues({0.9, 0.9}, 1e-12));
}

TEST_CASE("SGD: float32 parameters train through a module's backward", "[optim]") {
  // y = w x with w = [[1, 2]], x = [1, 1]: loss = (w x)² = 9, dloss/dw = 2 (w x) x = [6, 6];
  // lr 0.01: w = [1 - 0.06, 2 - 0.06] = [0.94, 1.94].
  Tensor w = tensor({{1, 2}}).requires_grad_();
  SGD opt({w}, SGDOptions(0.01));
  Tensor y = matmul(w, ones({2}));
  sum(y * y).backward();
  opt.step();
  CHECK(w.dtype() == kFloat32);
  CHECK_THAT(values(w), ApproxValues({0.94, 1.94}, 1e-6));
}

TEST_CASE("SGD: bad options and parameters throw, naming the value", "[optim]") {
  Tensor p = param({1});
  CHECK(error_message([&] { SGD(std::vector<Tensor>{p}, SGDOptions(-0.1)); }) ==
        "SGD: invalid lr -0.1 (must be >= 0)");
  CHECK(error_message([&] { SGD({p}, SGDOptions(0.1).momentum(-1)); }) ==
        "SGD: invalid momentum -1 (must be >= 0)");
  CHECK(error_message([&] { SGD({p}, SGDOptions(0.1).weight_decay(-0.5)); }) ==
        "SGD: invalid weight_decay -0.5 (must be >= 0)");
  CHECK(error_message([&] { SGD({p}, SGDOptions(0.1).nesterov(true)); }) ==
        "SGD: nesterov momentum requires momentum > 0 and dampening 0, got momentum 0 and "
        "dampening 0");
  CHECK(error_message([&] {
          SGD({p}, SGDOptions(0.1).momentum(0.9).dampening(0.1).nesterov(true));
        }) ==
        "SGD: nesterov momentum requires momentum > 0 and dampening 0, got momentum 0.9 and "
        "dampening 0.1");
  CHECK(error_message([&] { SGD({{.params = {p}, .lr = -2}}, SGDOptions(0.1)); }) ==
        "SGD: invalid lr -2 (must be >= 0)");
  CHECK(error_message([&] { SGD(std::vector<Tensor>{}, SGDOptions(0.1)); }) ==
        "SGD: got an empty parameter list");
  CHECK(error_message([&] { SGD({p, p}, SGDOptions(0.1)); }) ==
        "SGD: parameters 0 and 1 of group 0 are the same tensor");
  CHECK(error_message([&] { SGD({{.params = {p}}, {.params = {p}}}, SGDOptions(0.1)); }) ==
        "SGD: a parameter appears in more than one group");
  CHECK(error_message([&] { SGD({p * 2}, SGDOptions(0.1)); }) ==
        "SGD: parameter 0 of group 0 is not a leaf (it was made by MulBackward); an "
        "optimizer can only update leaves");
  CHECK(error_message([&] { SGD({tensor({1, 2}, kInt64)}, SGDOptions(0.1)); }) ==
        "SGD: parameter 0 of group 0 has dtype int64; parameters must be float32 or float64 (for "
            "bfloat16 products, keep float32 parameters and use autocast)");
  CHECK(error_message([&] { SGD({Tensor()}, SGDOptions(0.1)); }) ==
        "SGD: parameter 0 of group 0 is an undefined tensor");
}
