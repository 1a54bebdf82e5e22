// Adam and AdamW against updates worked out by hand, and one small model trained to the end.
#include "tests/catch.h"

#include <cmath>
#include <memory>

#include "helpers.h"
#include "nn/nn.h"
#include "optim/optim.h"
#include "optim_helpers.h"
#include "tensor/threads.h"

using namespace attic;
using namespace attic::testing;
using optim::Adam;
using optim::AdamOptions;
using optim::AdamW;
using optim::AdamWOptions;

TEST_CASE("Adam: two steps match the bias-corrected update worked out by hand", "[optim]") {
  // lr 0.1, betas (0.9, 0.999), eps 1e-8, p = [1, -1].
  // Step 1, g = [2, -0.5]:
  //   m = 0.1 g = [0.2, -0.05]          v = 0.001 g² = [0.004, 0.00025]
  //   1 - b1 = 0.1, 1 - b2 = 0.001:     step size 0.1 / 0.1 = 1,  √v / √0.001 = |g| = [2, 0.5]
  //   p -= m / (|g| + eps) = [0.1, -0.1] (less 5e-10, 2e-9 for eps)  -> [0.9, -0.9]
  // Step 2, g = [1, 1]:
  //   m = 0.9 m + 0.1 g = [0.28, 0.055]
  //   v = 0.999 v + 0.001 g² = [0.004996, 0.00124975]
  //   1 - b1² = 0.19, 1 - b2² = 0.001999:  √(v / 0.001999) = [1.5809015, 0.7906881]
  //   p -= (0.1 / 0.19) m / denom = [0.0932180, 0.0366104]  -> [0.8067820, -0.9366104]
  Tensor p = param({1, -1});
  Adam opt({p}, AdamOptions(0.1));
  step_with(opt, p, {2, -0.5});
  CHECK_THAT(values(p), ApproxValues({0.9000000005, -0.900000002}, 1e-11));
  step_with(opt, p, {1, 1});
  CHECK_THAT(values(p), ApproxValues({0.806782037209, -0.936610354241}, 1e-11));

  const nn::StateDict sd = opt.state_dict();
  CHECK(sd.at("state.0.step").item<int64_t>() == 2);
  CHECK_THAT(values(sd.at("state.0.exp_avg")), ApproxValues({0.28, 0.055}, 1e-12));
  CHECK_THAT(values(sd.at("state.0.exp_avg_sq")), ApproxValues({0.004996, 0.00124975}, 1e-12));
}

TEST_CASE("Adam: L2 weight decay goes through the moments", "[optim]") {
  // As above with weight_decay 0.5: the gradient becomes g + 0.5 p.
  // Step 1: g' = [2 + 0.5, -0.5 - 0.5] = [2.5, -1]; the first step moves each weight by
  //   lr · sign(g') = 0.1 (less eps)  -> [0.9, -0.9]
  // Step 2: g' = [1 + 0.45, 1 - 0.45] = [1.45, 0.55]
  //   m = 0.9 [0.25, -0.1] + 0.1 g' = [0.37, -0.035]
  //   v = 0.999 [0.00625, 0.001] + 0.001 g'² = [0.00834625, 0.0013015]
  //   denom = √(v / 0.001999) = [2.0433337, 0.8068925]
  //   p -= (0.1 / 0.19) m / denom = [0.0953035, -0.0228296]  -> [0.8046965, -0.8771704]
  Tensor p = param({1, -1});
  Adam opt({p}, AdamOptions(0.1).weight_decay(0.5));
  step_with(opt, p, {2, -0.5});
  CHECK_THAT(values(p), ApproxValues({0.9000000004, -0.900000001}, 1e-11));
  step_with(opt, p, {1, 1});
  CHECK_THAT(values(p), ApproxValues({0.804696506295, -0.877170377485}, 1e-11));
  CHECK(values(p.grad()) == std::vector<double>{1, 1});  // the decay did not touch .grad
}

TEST_CASE("AdamW: decoupled weight decay shrinks p before the update", "[optim]") {
  // The numbers of the plain Adam case, with p *= 1 - lr wd = 1 - 0.1 · 0.5 = 0.95 first:
  //   step 1: 0.95 [1, -1] - [0.1, -0.1] = [0.85, -0.85]
  //   step 2: 0.95 [0.85, -0.85] - [0.0932180, 0.0366104] = [0.7142820, -0.8441104]
  // (the moments are those of plain Adam: the decay never reaches them).
  Tensor p = param({1, -1});
  AdamW opt({p}, AdamWOptions(0.1).weight_decay(0.5));
  CHECK(opt.decoupled());
  step_with(opt, p, {2, -0.5});
  CHECK_THAT(values(p), ApproxValues({0.8500000005, -0.850000002}, 1e-11));
  step_with(opt, p, {1, 1});
  CHECK_THAT(values(p), ApproxValues({0.714282037184, -0.844110354141}, 1e-11));
  CHECK_THAT(values(opt.state_dict().at("state.0.exp_avg")), ApproxValues({0.28, 0.055}, 1e-12));
}

TEST_CASE("Adam and AdamW: the defaults are PyTorch's", "[optim]") {
  Tensor p = param({1});
  Adam adam({p});
  CHECK(adam.param_groups()[0].lr == 1e-3);
  CHECK(adam.param_groups()[0].weight_decay == 0.0);
  CHECK(adam.betas() == std::pair<double, double>{0.9, 0.999});
  CHECK(adam.eps() == 1e-8);
  CHECK_FALSE(adam.decoupled());

  Tensor q = param({1});
  AdamW adamw({q});
  CHECK(adamw.param_groups()[0].lr == 1e-3);
  CHECK(adamw.param_groups()[0].weight_decay == 1e-2);
  CHECK(adamw.betas() == std::pair<double, double>{0.9, 0.999});

  // A chain of setters keeps the options' own type, so AdamW keeps its decay default
  // unless told otherwise.
  Tensor r = param({1});
  AdamW tuned({r}, AdamWOptions(6e-4).betas({0.9, 0.95}).eps(1e-6));
  CHECK(tuned.param_groups()[0].lr == 6e-4);
  CHECK(tuned.param_groups()[0].weight_decay == 1e-2);
  CHECK(tuned.betas() == std::pair<double, double>{0.9, 0.95});
  CHECK(tuned.eps() == 1e-6);
}

TEST_CASE("AdamW: nanoGPT's two groups decay matrices and not vectors", "[optim]") {
  // One weight [2, 2] and one bias [2], gradient 0 everywhere: only the decay moves them.
  // (With g = 0, m = v = 0 and the Adam update is 0 / (0 + eps) = 0.)
  //   matrix: p *= 1 - lr wd = 1 - 0.1 · 0.2 = 0.98     vector: unchanged
  nn::Linear fc(2, 2);
  const std::vector<double> w0 = values(fc.weight), b0 = values(fc.bias);
  AdamW opt = optim::configure_optimizers(fc, 0.2, 0.1, {0.9, 0.999});
  REQUIRE(opt.param_groups()[0].params.size() == 1);  // the weight
  REQUIRE(opt.param_groups()[1].params.size() == 1);  // the bias
  for (Tensor& t : fc.parameters()) t.set_grad(zeros_like(t));
  opt.step();
  std::vector<double> w1 = w0;
  for (double& x : w1) x *= 0.98;
  CHECK_THAT(values(fc.weight), ApproxValues(w1, 1e-6));
  CHECK(values(fc.bias) == b0);
}

TEST_CASE("Adam: bad options throw, naming the value", "[optim]") {
  Tensor p = param({1});
  CHECK(error_message([&] { Adam({p}, AdamOptions(-1e-3)); }) ==
        "Adam: invalid lr -0.001 (must be >= 0)");
  CHECK(error_message([&] { Adam({p}, AdamOptions().betas({1.0, 0.999})); }) ==
        "Adam: invalid beta1 1 (must be in [0, 1))");
  CHECK(error_message([&] { AdamW({p}, AdamWOptions().betas({0.9, -0.1})); }) ==
        "AdamW: invalid beta2 -0.1 (must be in [0, 1))");
  CHECK(error_message([&] { Adam({p}, AdamOptions().eps(-1e-8)); }) ==
        "Adam: invalid eps -1e-08 (must be >= 0)");
  CHECK(error_message([&] { AdamW({p}, AdamWOptions().weight_decay(-0.1)); }) ==
        "AdamW: invalid weight_decay -0.1 (must be >= 0)");
  CHECK(error_message([&] { AdamW({{.params = {p}, .weight_decay = -1}}); }) ==
        "AdamW: invalid weight_decay -1 (must be >= 0)");
}

TEST_CASE("AdamW: a Linear(1, 1) learns y = 2x + 1", "[optim]") {
  manual_seed(1234);
  nn::Linear fc(1, 1);
  Tensor x = arange(-1, 1, 0.1).unsqueeze(1);  // [20, 1]
  Tensor y = 2 * x + 1;
  AdamW opt(fc.parameters(), AdamWOptions(0.05));
  double loss_value = 1.0;
  int it = 0;
  for (; it < 2000 && loss_value >= 1e-4; ++it) {
    opt.zero_grad();
    Tensor diff = fc(x) - y;
    Tensor loss = mean(diff * diff);
    loss.backward();
    opt.step();
    loss_value = loss.item<double>();
  }
  INFO("stopped after " << it << " steps at loss " << loss_value);
  CHECK(loss_value < 1e-4);
  CHECK(fc.weight.item<double>() == Approx(2.0).margin(0.02));
  CHECK(fc.bias.item<double>() == Approx(1.0).margin(0.02));
}

TEST_CASE("the fused step equals the reference update written in tensor ops", "[optim]") {
  // step() runs the fused kernel (tensor/cpu/adam.cpp); adam_update_naive is the same
  // update as a dozen tensor ops. Three steps of each, AdamW and Adam with L2 decay, in
  // float32 (the kernel may contract a * b + c into one FMA: a few ulp) and float64.
  for (const bool decoupled : {true, false}) {
    for (const DType dt : {kFloat32, kFloat64}) {
      manual_seed(3);
      const Tensor init = randn({5, 7}, TensorOptions(dt));
      Tensor fused = init.clone().requires_grad_();
      Tensor ref = init.clone(), m = zeros_like(init), v = zeros_like(init);
      std::unique_ptr<optim::Optimizer> opt;
      if (decoupled) opt = std::make_unique<AdamW>(std::vector<Tensor>{fused},
                                                   AdamWOptions(0.01).weight_decay(0.1));
      else opt = std::make_unique<Adam>(std::vector<Tensor>{fused},
                                        AdamOptions(0.01).weight_decay(0.1));
      for (int t = 1; t <= 3; ++t) {
        const Tensor g = randn({5, 7}, TensorOptions(dt));
        fused.set_grad(g);
        opt->step();
        AdamStep s;
        s.lr = 0.01;
        s.weight_decay = 0.1;
        s.beta1 = 0.9;
        s.beta2 = 0.999;
        s.eps = 1e-8;
        s.decoupled = decoupled;
        s.bias_correction1 = 1 - std::pow(0.9, t);
        s.bias_correction2 = 1 - std::pow(0.999, t);
        optim::adam_update_naive(ref, g, m, v, s);
      }
      const double tol = dt == kFloat32 ? 1e-6 : 1e-14;
      CHECK_THAT(values(fused), ApproxValues(values(ref), tol));
    }
  }
}

TEST_CASE("adam_step_ rejects mismatched state and tracked writes", "[optim][errors]") {
  Tensor p = zeros({3}), g = zeros({3}), m = zeros({3}), v = zeros({4});
  CHECK(error_message([&] { adam_step_(p, g, m, v, AdamStep{}); }) ==
        "adam_step_: shapes differ, param [3] and [4]");
  Tensor q = zeros({3}).requires_grad_();
  CHECK(error_message([&] { adam_step_(q, g, m, m, AdamStep{}); }) ==
        "adam_step_: in-place write to a tensor that requires grad; do it inside NoGradGuard");
}

TEST_CASE("adam_steps_ over a list equals adam_step_ on each, bit for bit", "[optim]") {
  // Sizes around the kernel's 65536-element chunks, so that chunks start and end inside
  // parameters and span several; an empty one; float32 beside float64; each parameter with
  // its own step count, learning rate and decay, Adam's L2 form and AdamW's. At 1, 2 and 3
  // threads the list must give what one adam_step_ per parameter gives.
  const std::vector<int64_t> sizes = {3, 65533, 0, 130000, 7, 65536, 1};
  const int saved = num_threads();
  for (int threads : {1, 2, 3}) {
    set_num_threads(threads);
    INFO("threads " << threads);
    manual_seed(11);
    std::vector<Tensor> p1, p2, g, m1, m2, v1, v2;
    std::vector<AdamStep> steps;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const TensorOptions o(i % 3 == 1 ? kFloat64 : kFloat32);
      const Tensor p = randn({sizes[i]}, o);
      const Tensor m = randn({sizes[i]}, o) * 0.1;
      const Tensor v = rand({sizes[i]}, o) * 0.01;
      p1.push_back(p.clone());
      p2.push_back(p.clone());
      m1.push_back(m.clone());
      m2.push_back(m.clone());
      v1.push_back(v.clone());
      v2.push_back(v.clone());
      g.push_back(randn({sizes[i]}, o));
      AdamStep s;
      s.lr = 0.001 * double(i + 1);
      s.weight_decay = 0.05 * double(i % 2);
      s.beta1 = 0.9;
      s.beta2 = 0.95;
      s.eps = 1e-8;
      s.decoupled = i % 4 != 3;
      s.bias_correction1 = 1 - std::pow(0.9, double(i + 1));
      s.bias_correction2 = 1 - std::pow(0.95, double(i + 1));
      steps.push_back(s);
    }
    adam_steps_(p1, g, m1, v1, steps);
    for (size_t i = 0; i < sizes.size(); ++i) adam_step_(p2[i], g[i], m2[i], v2[i], steps[i]);
    for (size_t i = 0; i < sizes.size(); ++i) {
      INFO("parameter " << i);
      CHECK(values(p1[i]) == values(p2[i]));
      CHECK(values(m1[i]) == values(m2[i]));
      CHECK(values(v1[i]) == values(v2[i]));
    }
  }
  set_num_threads(saved);
}

TEST_CASE("adam_steps_ rejects lists that do not pair up and shared storage",
          "[optim][errors]") {
  Tensor p = zeros({3}), g = zeros({3}), m = zeros({3}), v = zeros({3});
  CHECK(error_message([&] { adam_steps_({p}, {g}, {m}, {v}, {}); }) ==
        "adam_steps_: lists of different lengths (1 params, 1 grads, 1 exp_avg, 1 exp_avg_sq, "
        "0 steps)");
  Tensor both = zeros({6});
  Tensor a = both.narrow(0, 0, 3), b = both.narrow(0, 3, 3);
  CHECK(error_message([&] {
          adam_steps_({a, b}, {g, g}, {m, zeros({3})}, {v, zeros({3})},
                      {AdamStep{}, AdamStep{}});
        }) == "adam_steps_: params 0 and 1 share their storage");
  CHECK(error_message([&] { adam_steps_({p}, {g}, {m}, {zeros({4})}, {AdamStep{}}); }) ==
        "adam_steps_: shapes differ, param [3] and [4]");
}
