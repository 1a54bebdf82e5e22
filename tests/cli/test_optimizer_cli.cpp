// The optimizer and schedule keys from the command line (train/make_optimizer.h): SGD with
// Nesterov momentum, weight decay on every parameter and PyTorch's StepLR trains, lowers the
// loss, and resumes as an uninterrupted run; bad combinations are one line, exit 2.
#include "cli/cli_helpers.h"

using namespace attic::testing;

namespace {

std::vector<std::string> eval_lines(const std::string& out) { return lines_matching(out, "^step [0-9]+: "); }

// "step 8: train loss 2.1, val loss 2.2" -> 2.2
double val_loss(const std::string& line) { return std::stod(line.substr(line.rfind(' ') + 1)); }

}  // namespace

TEST_CASE("attic train --optimizer=sgd with Nesterov, decay_all and lr_schedule=step trains and resumes exactly",
          "[cli][e2e][optim]") {
  Scratch s;
  const std::string flags = " --optimizer=sgd --momentum=0.9 --nesterov=true --weight_decay=1e-4 --decay_all=true "
                            "--lr_schedule=step --lr_gamma=0.9 --lr_step_size=3 --learning_rate=0.5 --warmup_iters=0 "
                            "--grad_clip=0.5 --eval_interval=4";
  Run full = attic_run("train " + s.tiny("a") + flags + " --max_iters=8");
  INFO(full.out);
  REQUIRE(full.code == 0);
  const std::vector<std::string> evals = eval_lines(full.out);
  REQUIRE(evals.size() == 3);  // steps 0, 4, 8
  CHECK(val_loss(evals.back()) < val_loss(evals.front()));

  REQUIRE(attic_run("train " + s.tiny("b") + flags + " --max_iters=4").code == 0);
  Run resumed = attic_run("train " + s.tiny("b") + flags + " --max_iters=8 --init_from=resume");
  INFO(resumed.out);
  REQUIRE(resumed.code == 0);
  CHECK(eval_lines(resumed.out).back() == evals.back());

  // The help lists the keys.
  Run help = attic_run("train --help");
  for (const char* key : {"optimizer=", "momentum=", "nesterov=", "dampening=", "decay_all=", "lr_gamma=",
                          "lr_step_size="})
    CHECK(help.out.find(key) != std::string::npos);
}

TEST_CASE("bad optimizer and schedule keys are one line and exit 2", "[cli][errors][optim]") {
  Scratch s;
  check_one_line(attic_run("train " + s.tiny("x") + " --optimizer=lbfgs"),
                 "optimizer must be adamw or sgd, got 'lbfgs'");
  check_one_line(attic_run("train " + s.tiny("x") + " --optimizer=sgd --nesterov=true"),
                 "nesterov = true needs optimizer = sgd, momentum > 0 and dampening = 0 (PyTorch's rule), got "
                 "optimizer = sgd, momentum 0, dampening 0");
  check_one_line(attic_run("train " + s.tiny("x") + " --lr_schedule=exponential"),
                 "lr_schedule must be cosine, inverse_sqrt, step, cosine_epochs or step_epochs, got 'exponential'");
}
