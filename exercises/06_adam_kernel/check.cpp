// The check of chapter 6's exercise: my_adam_step against attic's own optim::AdamW and
// optim::Adam, step after step, on the parameter and on both moment buffers; then swapped in
// for the CPU backend's Adam kernel (tensor/swap_in.h), training the laptop GPT.
#include "tests/catch.h"

#include <cmath>
#include <vector>

#include <memory>

#include "adam_kernel.h"
#include "data/data.h"
#include "models/gpt.h"
#include "optim/optim.h"
#include "tensor/swap_in.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

// |a - b| <= 1e-6 |b|, with a floor of 1e-7 for entries near 0: float32 rounding of the same
// formula computed in another order stays far inside it.
bool close(float a, float b) { return std::abs(a - b) <= 1e-6f * std::abs(b) + 1e-7f; }

// How many entries of mine differ from lib beyond close(); 0 when they all agree.
int64_t mismatches(const std::vector<float>& mine, const Tensor& lib) {
  const std::vector<float> want = lib.detach().to_vector<float>();
  int64_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) bad += close(mine[i], want[i]) ? 0 : 1;
  return bad;
}

// Runs `steps` steps of opt (over the one parameter p) and of my_adam_step on a copy of p,
// feeding both the same random gradients, and checks p, exp_avg and exp_avg_sq after each.
void run_next_to(optim::Optimizer& opt, Tensor& p, double lr, std::pair<double, double> betas,
                 double eps, double wd, bool decoupled, int steps) {
  const int64_t n = p.numel();
  std::vector<float> mine = p.detach().to_vector<float>(), m(size_t(n), 0.f), v(size_t(n), 0.f);
  for (int t = 1; t <= steps; ++t) {
    const Tensor g = randn({n}) * (t == 3 ? 100.0 : 1.0);  // one step with large gradients
    p.set_grad(g);
    opt.step();
    AdamStep s;
    s.lr = lr;
    s.beta1 = betas.first;
    s.beta2 = betas.second;
    s.eps = eps;
    s.weight_decay = wd;
    s.decoupled = decoupled;
    s.bias_correction1 = 1 - std::pow(betas.first, double(t));
    s.bias_correction2 = 1 - std::pow(betas.second, double(t));
    const std::vector<float> gv = g.to_vector<float>();
    my_adam_step(mine.data(), gv.data(), m.data(), v.data(), n, s);

    const nn::StateDict state = opt.state_dict();
    INFO("step t = " << t);
    CHECK(mismatches(m, state.at("state.0.exp_avg")) == 0);
    CHECK(mismatches(v, state.at("state.0.exp_avg_sq")) == 0);
    CHECK(mismatches(mine, p) == 0);
  }
}

}  // namespace

TEST_CASE("AdamW with weight decay: nanoGPT's betas, 6 steps") {
  set_num_threads(1);
  manual_seed(1);
  Tensor p = randn({1000}).requires_grad_();
  optim::AdamW opt({p}, optim::AdamWOptions(1e-2).betas({0.9, 0.95}).weight_decay(0.1));
  run_next_to(opt, p, 1e-2, {0.9, 0.95}, 1e-8, 0.1, true, 6);
}

TEST_CASE("AdamW without weight decay, PyTorch's default betas and a large eps") {
  set_num_threads(1);
  manual_seed(2);
  Tensor p = randn({1000}).requires_grad_();
  optim::AdamW opt({p}, optim::AdamWOptions(3e-3).eps(1e-3).weight_decay(0.0));
  run_next_to(opt, p, 3e-3, {0.9, 0.999}, 1e-3, 0.0, true, 6);
}

TEST_CASE("Adam with L2 weight decay (not decoupled)") {
  set_num_threads(1);
  manual_seed(3);
  Tensor p = randn({1000}).requires_grad_();
  optim::Adam opt({p}, optim::AdamOptions(1e-2).weight_decay(0.5));
  run_next_to(opt, p, 1e-2, {0.9, 0.999}, 1e-8, 0.5, false, 6);
}

TEST_CASE("the first AdamW step moves every entry by about lr, against its gradient") {
  // Bias correction makes m̂ = g and v̂ = g² at t = 1: p = p (1 - lr wd) - lr g / (|g| + eps).
  std::vector<float> p = {1.f, -2.f, 0.5f}, g = {0.3f, -4.f, 1e-3f}, m(3, 0.f), v(3, 0.f);
  AdamStep s;
  s.lr = 0.1;
  s.beta1 = 0.9;
  s.beta2 = 0.95;
  s.eps = 1e-8;
  s.weight_decay = 0.1;
  s.decoupled = true;
  s.bias_correction1 = 1 - 0.9;
  s.bias_correction2 = 1 - 0.95;
  my_adam_step(p.data(), g.data(), m.data(), v.data(), 3, s);
  const std::vector<float> want = {1.f * 0.99f - 0.1f, -2.f * 0.99f + 0.1f, 0.5f * 0.99f - 0.1f};
  for (size_t i = 0; i < 3; ++i) CHECK(p[i] == Approx(want[i]).epsilon(1e-5));
}

namespace {

// The CPU backend's Adam kernel, for float32 parameters: my_adam_step over the raw arrays
// (the optimizer keeps p, m and v contiguous, and hands g over contiguous).
int64_t my_calls = 0;
bool my_adam(const KTensor& p, const KTensor& g, const KTensor& m, const KTensor& v,
             const AdamStep& s) {
  if (p.dtype != kFloat32 || g.dtype != kFloat32) return false;
  ++my_calls;
  my_adam_step(p.ptr<float>(), g.ptr<float>(), m.ptr<float>(), v.ptr<float>(), p.numel(), s);
  return true;
}

}  // namespace

TEST_CASE("swapped in, my_adam_step trains the laptop GPT: 30 steps, attic's losses") {
  const TextDataset ds = TextDataset::from_file(default_dataset_path());
  // config/shakespeare_char_cpu.cfg's model, batch and optimizer (4 layers, 4 heads, width
  // 128, context 64, batch 12, lr 1e-3 with 100 warm-up steps, beta2 0.99, weight decay 0.1),
  // trained once by attic's kernel and once by yours, from the same weights on the same batches.
  auto train = [&](bool mine) {
    manual_seed(11);
    models::GPTConfig cfg;
    cfg.block_size = 64;
    cfg.vocab_size = ds.vocab_size();
    cfg.n_layer = 4;
    cfg.n_head = 4;
    cfg.n_embd = 128;
    auto model = std::make_unique<models::GPT>(cfg);
    optim::AdamW opt = model->configure_optimizers(0.1, 1e-3, {0.9, 0.99});
    Generator gen(12);
    std::vector<double> losses;
    AdamSwap swap(mine ? my_adam : nullptr);
    for (int64_t iter = 0; iter < 30; ++iter) {
      optim::set_lr(opt, optim::cosine_with_warmup(iter, 1e-3, 1e-4, 100, 2000));
      const Batch b = ds.get_batch(Split::Train, 12, 64, gen);
      Tensor loss = model->forward(b.x, b.y).loss;
      loss.backward();
      optim::clip_grad_norm_(model->parameters(), 1.0);
      opt.step();
      opt.zero_grad();
      losses.push_back(loss.item<double>());
    }
    return losses;
  };
  const std::vector<double> attics = train(false);
  my_calls = 0;
  const std::vector<double> mine = train(true);
  CHECK(my_calls > 30);  // every parameter, every step
  for (size_t i = 0; i < mine.size(); ++i) {
    INFO("step " << i);
    CHECK(mine[i] == Approx(attics[i]).margin(1e-4));
  }
  CHECK(mine.back() < mine.front() - 0.5);  // it learned
}
