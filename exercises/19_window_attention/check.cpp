// The check of chapter 19's exercise: WindowAttention against the GPT's softmax attention
// (a window as long as the sequence is ordinary causal attention), against a window of one
// (each token sees only itself), and the reach of a window of three; then the whole GPT
// with --attention=window.
#include <cmath>

#include "tests/catch.h"

#include "tensor/threads.h"
#include "window_attention.h"

using namespace attic;

namespace {

double max_abs_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

nn::MixerOptions options() {
  nn::MixerOptions o;
  o.n_embd = 16;
  o.n_head = 4;
  o.block_size = 12;
  return o;
}

// A WindowAttention whose weights are a copy of the softmax attention's.
std::shared_ptr<WindowAttention> copy_of(nn::CausalMixer& softmax, int64_t window) {
  auto w = std::make_shared<WindowAttention>(options(), window);
  w->load_state_dict(softmax.state_dict());
  return w;
}

}  // namespace

TEST_CASE("a window as long as the sequence is causal softmax attention") {
  set_num_threads(1);
  manual_seed(3);
  auto softmax = models::make_causal_mixer("softmax", options());
  auto mine = copy_of(*softmax, 12);
  const Tensor x = randn({2, 10, 16});
  const Tensor y = mine->forward(x);
  REQUIRE(y.shape() == x.shape());
  CHECK(max_abs_diff(y, softmax->forward(x)) < 1e-5);

  Tensor xa = x.detach().requires_grad_(), xb = x.detach().requires_grad_();
  sum(mine->forward(xa)).backward();
  sum(softmax->forward(xb)).backward();
  CHECK(max_abs_diff(xa.grad(), xb.grad()) < 1e-4);
}

TEST_CASE("a window of one: each token attends to itself only, so y = c_proj(v)") {
  manual_seed(4);
  auto softmax = models::make_causal_mixer("softmax", options());
  auto mine = copy_of(*softmax, 1);
  const Tensor x = randn({1, 7, 16});
  const Tensor v = mine->c_attn->forward(x).narrow(2, 32, 16);
  CHECK(max_abs_diff(mine->forward(x), mine->c_proj->forward(v)) < 1e-5);
}

TEST_CASE("with a window of three, position t reads t-2, t-1 and t, nothing earlier") {
  manual_seed(5);
  auto mine = std::make_shared<WindowAttention>(options(), 3);
  const Tensor x = randn({1, 8, 16});
  const Tensor base = mine->forward(x);
  for (int64_t s = 0; s < 8; ++s) {
    Tensor changed = x.clone();
    changed.narrow(1, s, 1).fill_(3.0);
    const Tensor y = mine->forward(changed);
    for (int64_t t = 0; t < 8; ++t) {
      const bool reads = s <= t && s > t - 3;
      const double moved = max_abs_diff(y.narrow(1, t, 1), base.narrow(1, t, 1));
      INFO("changing position " << s << " moved position " << t << " by " << moved);
      if (reads) CHECK(moved > 1e-4);
      else CHECK(moved < 1e-6);
    }
  }
}

TEST_CASE("registered, it runs in the GPT as --attention=window") {
  models::register_attention({"window", "sliding-window attention (the chapter 19 exercise)",
                              nn::declare_options<nn::NoOptions>(),
                          [](const nn::MixerOptions& o) {
                            return std::make_shared<WindowAttention>(o, 4);
                          },
                          nullptr});
  models::GPTConfig cfg;
  cfg.block_size = 12;
  cfg.vocab_size = 11;
  cfg.n_layer = 2;
  cfg.n_head = 2;
  cfg.n_embd = 8;
  cfg.attention = "window";
  manual_seed(6);
  models::GPT gpt(cfg);
  const Tensor idx = randint(0, 11, {2, 12}, TensorOptions(kInt64));
  Tensor loss = gpt.forward(idx, idx).loss;
  CHECK(std::isfinite(loss.item<double>()));
  loss.backward();
  for (const auto& [name, p] : gpt.named_parameters()) {
    INFO(name);
    CHECK(p.grad().defined());
  }
}
