// Anomaly mode: the first NaN or Inf of a forward or a backward raises attic::Error naming
// the op and where it was created.
#include <cmath>
#include <limits>
#include <thread>

#include "autograd/anomaly_mode.h"
#include "helpers.h"
#include "models/gpt.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::values;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("anomaly mode: a poisoned input raises at the first op that reads it", "[anomaly]") {
  Tensor w = tensor({1, 2, 3}).requires_grad_();
  Tensor x = tensor({1, kNaN, 3});  // the poisoned input
  autograd::DetectAnomalyGuard anomaly;
  Tensor y = w * 2.0;  // op #1: finite
  const std::string msg = error_message([&] { (void)(y + x); });
  CHECK(msg == "anomaly: forward of Add produced 1 NaN among 3 values (the first at flat "
               "index 1) in its output of shape [3]; input 1 already held 1 NaN among 3 "
               "values (the first at flat index 1). Add was created as op #2 of the forward, "
               "right after Mul; inputs: Mul [3], constant [3]");
}

TEST_CASE("anomaly mode: an Inf made in the forward raises, a passed-on -inf does not",
          "[anomaly]") {
  autograd::DetectAnomalyGuard anomaly;
  Tensor x = tensor({1, 0, 2}).requires_grad_();
  // log(0) = -inf is made here: raised.
  CHECK(error_message([&] { (void)log(x); }) ==
        "anomaly: forward of Log produced 1 Inf among 3 values (the first at flat index 1) in "
        "its output of shape [3]. Log was created as op #1 of the forward; inputs: leaf [3]");
  // masked_fill writes the -inf it was given (an input of the where it records), and the
  // softmax after it is finite: attention's causal mask passes.
  Tensor scores = tensor({{1, 2}, {3, 4}}).requires_grad_();
  Tensor masked = masked_fill(scores, tensor({{0, 1}, {0, 0}}, kBool), -kInf);
  Tensor att = softmax(masked, -1);
  CHECK(values(att)[0] == 1.0);
  CHECK(values(att)[1] == 0.0);
}

TEST_CASE("anomaly mode: a NaN made only in the backward raises with the path from the loss",
          "[anomaly]") {
  // loss = sum(√x · 3) with x = [0, 4]: the forward is finite (√0 = 0), but
  // d√x/dx = 1 / (2√x) = 1/0 = inf at x = 0.
  Tensor x = tensor({0, 4}).requires_grad_();
  {
    autograd::DetectAnomalyGuard anomaly;
    Tensor loss = sum(sqrt(x) * 3.0);
    CHECK(error_message([&] { loss.backward(); }) ==
          "anomaly: SqrtBackward returned 1 Inf among 2 values (the first at flat index 0) in "
          "the gradient of input 0 of shape [2] (its incoming gradient was finite). Sqrt was "
          "created as op #1 of the forward; inputs: leaf [2]. Path from the root: "
          "SumBackward -> MulBackward -> SqrtBackward");
  }
  // Off, nothing checks: the Inf reaches x.grad (d/dx at 4 is 3 / (2 · 2) = 0.75).
  Tensor loss = sum(sqrt(x) * 3.0);
  loss.backward();
  CHECK(std::isinf(values(x.grad())[0]));
  CHECK(values(x.grad())[1] == 0.75);
}

TEST_CASE("anomaly mode: a NaN that arrives with the incoming gradient is named as such",
          "[anomaly]") {
  // y = x · 2, backward with an explicit dL/dy = [NaN, 1]: MulBackward returns
  // dL/dx = 2 dL/dy = [NaN, 2], and the message says the NaN came in with dL/dy.
  Tensor x = tensor({1, 2}).requires_grad_();
  autograd::DetectAnomalyGuard anomaly;
  Tensor y = x * 2.0;
  CHECK(error_message([&] { y.backward(tensor({kNaN, 1})); }) ==
        "anomaly: MulBackward returned 1 NaN among 2 values (the first at flat index 0) in "
        "the gradient of input 0 of shape [2] (its incoming gradient already held 1 NaN "
        "among 2 values (the first at flat index 0)). Mul was created as op #1 of the "
        "forward; inputs: leaf [2], constant []. Path from the root: MulBackward");
}

TEST_CASE("anomaly mode: a graph recorded with the mode off still gets its backward checked",
          "[anomaly]") {
  Tensor x = tensor({0, 1}).requires_grad_();
  Tensor loss = sum(sqrt(x));
  autograd::DetectAnomalyGuard anomaly;
  const std::string msg = error_message([&] { loss.backward(); });
  CHECK(msg.find("anomaly: SqrtBackward returned 1 Inf") == 0);
  CHECK(msg.find("(not recorded: anomaly mode was off during the forward)") != std::string::npos);
}

TEST_CASE("anomaly mode: the guard nests, restores and is per thread", "[anomaly]") {
  CHECK_FALSE(autograd::AnomalyMode::is_enabled());
  {
    autograd::DetectAnomalyGuard on;
    CHECK(autograd::AnomalyMode::is_enabled());
    bool other_thread = true;
    std::thread([&] { other_thread = autograd::AnomalyMode::is_enabled(); }).join();
    CHECK_FALSE(other_thread);
    {
      autograd::DetectAnomalyGuard off(false);
      CHECK_FALSE(autograd::AnomalyMode::is_enabled());
    }
    CHECK(autograd::AnomalyMode::is_enabled());
  }
  CHECK_FALSE(autograd::AnomalyMode::is_enabled());
}

TEST_CASE("anomaly mode: a tiny GPT trains a step with the mode on", "[anomaly]") {
  models::GPTConfig cfg;
  cfg.block_size = 4;
  cfg.vocab_size = 5;
  cfg.n_layer = 1;
  cfg.n_head = 2;
  cfg.n_embd = 4;
  manual_seed(1);
  models::GPT model(cfg);
  Tensor idx = tensor({{0, 1, 2, 3}}, kInt64), targets = tensor({{1, 2, 3, 4}}, kInt64);
  autograd::DetectAnomalyGuard anomaly;
  Tensor loss = model.forward(idx, targets).loss;  // the causal mask's -inf passes
  loss.backward();
  CHECK(std::isfinite(loss.item<double>()));
  for (const Tensor& p : model.parameters()) CHECK(p.grad().defined());
}
