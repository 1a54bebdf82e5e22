// Learning-rate schedules at the points where their formulas change.
#include "tests/catch.h"

#include "helpers.h"
#include "optim/optim.h"

using namespace attic;
using namespace attic::testing;
using optim::cosine_with_warmup;

TEST_CASE("cosine_with_warmup: nanoGPT's breakpoints for the GPU recipe", "[optim]") {
  // lr 1e-3, min_lr 1e-4, warmup 100, decay until 5000.
  auto lr = [](int64_t it) { return cosine_with_warmup(it, 1e-3, 1e-4, 100, 5000); };
  CHECK(lr(0) == 0.0);                               // 1e-3 · 0 / 100
  CHECK(lr(50) == Approx(5e-4).epsilon(1e-12));      // 1e-3 · 50 / 100
  CHECK(lr(99) == Approx(9.9e-4).epsilon(1e-12));    // the last warmup step
  CHECK(lr(100) == Approx(1e-3).epsilon(1e-12));     // r = 0: coeff ½ (1 + cos 0) = 1
  // r = (2550 - 100) / 4900 = 0.5: coeff ½ (1 + cos π/2) = ½;  1e-4 + ½ · 9e-4 = 5.5e-4
  CHECK(lr(2550) == Approx(5.5e-4).epsilon(1e-12));
  // r = 0.25: coeff ½ (1 + √½) = 0.853553;  1e-4 + 0.853553 · 9e-4 = 8.681981e-4
  CHECK(lr(1325) == Approx(8.681980515e-4).epsilon(1e-9));
  CHECK(lr(5000) == Approx(1e-4).epsilon(1e-12));    // r = 1: coeff ½ (1 + cos π) = 0
}

TEST_CASE("cosine_with_warmup: past lr_decay_iters it stays at min_lr", "[optim]") {
  auto lr = [](int64_t it) { return cosine_with_warmup(it, 1e-3, 1e-4, 100, 5000); };
  CHECK(lr(5001) == 1e-4);
  CHECK(lr(1000000) == 1e-4);
  // Decreasing all the way from the end of warmup to the end of decay.
  bool decreasing = true;
  for (int64_t it = 100; it < 5000; ++it) decreasing = decreasing && lr(it + 1) <= lr(it);
  CHECK(decreasing);
  // No warmup: the first iteration is already at lr.
  CHECK(cosine_with_warmup(0, 6e-4, 6e-5, 0, 600000) == 6e-4);
}

TEST_CASE("cosine_with_warmup: bad arguments throw", "[optim]") {
  CHECK(error_message([] { cosine_with_warmup(-1, 1e-3, 1e-4, 100, 5000); }) ==
        "cosine_with_warmup: iteration -1 is negative");
  CHECK(error_message([] { cosine_with_warmup(0, 1e-3, 1e-4, 100, 100); }) ==
        "cosine_with_warmup: needs 0 <= warmup_iters < lr_decay_iters, got warmup_iters 100 "
        "and lr_decay_iters 100");
}

TEST_CASE("constant_with_warmup: a ramp, then constant", "[optim]") {
  CHECK(optim::constant_with_warmup(0, 1e-3, 10) == 0.0);
  CHECK(optim::constant_with_warmup(5, 1e-3, 10) == Approx(5e-4).epsilon(1e-12));
  CHECK(optim::constant_with_warmup(10, 1e-3, 10) == 1e-3);
  CHECK(optim::constant_with_warmup(12345, 1e-3, 10) == 1e-3);
  CHECK(optim::constant_with_warmup(0, 1e-3) == 1e-3);  // no warmup: constant from the start
  CHECK(error_message([] { optim::constant_with_warmup(1, 1e-3, -5); }) ==
        "constant_with_warmup: warmup_iters -5 is negative");
}

TEST_CASE("inverse_sqrt: min(1e-3, 1e-2 / sqrt(step))", "[optim]") {
  CHECK(optim::inverse_sqrt(1) == 1e-3);    // 1e-2 / 1 = 1e-2, capped at 1e-3
  CHECK(optim::inverse_sqrt(50) == 1e-3);   // 1e-2 / 7.07 = 1.41e-3, capped
  CHECK(optim::inverse_sqrt(100) == Approx(1e-3).epsilon(1e-12));   // 1e-2 / 10
  CHECK(optim::inverse_sqrt(400) == Approx(5e-4).epsilon(1e-12));   // 1e-2 / 20
  CHECK(optim::inverse_sqrt(10000) == Approx(1e-4).epsilon(1e-12)); // 1e-2 / 100
  CHECK(optim::inverse_sqrt(16, 1.0, 2.0) == Approx(0.5).epsilon(1e-12));  // min(1, 2 / 4)
  CHECK(error_message([] { optim::inverse_sqrt(0); }) ==
        "inverse_sqrt: step must be >= 1 (steps count from 1), got 0");
}

TEST_CASE("set_lr: sets every group's lr, and a schedule drives an optimizer", "[optim]") {
  Tensor a = ones({1}).requires_grad_(), b = ones({1}).requires_grad_();
  optim::SGD opt({{.params = {a}}, {.params = {b}, .lr = 0.5}}, optim::SGDOptions(0.1));
  optim::set_lr(opt, 0.25);
  CHECK(opt.param_groups()[0].lr == 0.25);
  CHECK(opt.param_groups()[1].lr == 0.25);
  CHECK(error_message([&] { optim::set_lr(opt, -1); }) == "set_lr: invalid lr -1 (must be >= 0)");

  // With g = 1 each step moves a by -lr(it): the warmup steps 0, 1, 2 of a 4-step warmup to
  // lr 1 are 0, 0.25, 0.5, so a = 1 - 0.75 = 0.25.
  for (int64_t it = 0; it < 3; ++it) {
    optim::set_lr(opt, optim::constant_with_warmup(it, 1.0, 4));
    a.set_grad(ones({1}));
    opt.step();
  }
  CHECK(a.item<double>() == Approx(0.25).epsilon(1e-7));
}

TEST_CASE("step_decay: PyTorch's StepLR, after a warmup", "[optim]") {
  // StepLR(step_size=3, gamma=0.5) from lr 1: 1, 1, 1, 0.5, 0.5, 0.5, 0.25, ...
  const std::vector<double> want = {1, 1, 1, 0.5, 0.5, 0.5, 0.25};
  for (int64_t it = 0; it < int64_t(want.size()); ++it) CHECK(optim::step_decay(it, 1.0, 0.5, 3) == want[size_t(it)]);
  // The Linformer tutorial's StepLR(1, gamma=0.9) from lr 5.0, stepped once per epoch.
  CHECK(optim::step_decay(2, 5.0, 0.9, 1) == Approx(5.0 * 0.81));
  // With a warmup of 4: the ramp of constant_with_warmup, then the steps from iteration 0 on.
  CHECK(optim::step_decay(2, 1.0, 0.5, 3, 4) == 0.5);
  CHECK(optim::step_decay(4, 1.0, 0.5, 3, 4) == 0.5);
  CHECK_THROWS_AS(optim::step_decay(0, 1.0, 0.5, 0), Error);
}
