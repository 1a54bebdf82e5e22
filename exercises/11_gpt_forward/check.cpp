// The check of chapter 11's exercise: the forward written from the modules against
// models::GPT's own (outputs and gradients), and the parameter count against
// GPT::num_params_non_embedding().
#include "tests/catch.h"

#include "gpt_forward.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

// The largest |a - b| over all elements.
double max_abs_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

models::GPTConfig small_config(bool bias) {
  models::GPTConfig c;
  c.block_size = 16;
  c.vocab_size = 13;
  c.n_layer = 3;
  c.n_head = 2;
  c.n_embd = 24;
  c.bias = bias;
  return c;
}

}  // namespace

TEST_CASE("my_mlp_forward and my_block_forward equal the library's") {
  set_num_threads(1);
  manual_seed(1);
  models::GPT model(small_config(true));
  const Tensor x = randn({2, 10, 24});
  auto& block = *model.h->at<models::Block>(1);
  const Tensor mlp = my_mlp_forward(*block.mlp, x);
  REQUIRE(mlp.shape() == x.shape());
  CHECK(max_abs_diff(mlp, block.mlp->forward(x)) < 1e-6);
  const Tensor y = my_block_forward(block, x);
  REQUIRE(y.shape() == x.shape());
  CHECK(max_abs_diff(y, block.forward(x)) < 1e-6);
}

TEST_CASE("my_gpt_logits equals GPT::forward, logits and gradients") {
  set_num_threads(1);
  for (bool bias : {true, false}) {
    INFO("bias " << bias);
    manual_seed(2);
    models::GPT model(small_config(bias));
    const Tensor idx = randint(0, 13, {3, 16});
    const Tensor mine = my_gpt_logits(model, idx);
    const Tensor library = model.forward(idx, idx).logits;  // with targets: all T positions
    REQUIRE(mine.shape() == library.shape());
    CHECK(max_abs_diff(mine, library) < 1e-5);

    // The same weighted sum of the logits, backpropagated through both: wte's gradient (it
    // collects from the embedding and from lm_head) and the first block's c_fc must agree.
    const Tensor w = randn(library.shape());
    sum(mine * w).backward();
    const Tensor g_wte = model.wte->weight.grad().clone();
    const Tensor g_fc = model.h->at<models::Block>(0)->mlp->c_fc->weight.grad().clone();
    model.zero_grad();
    sum(model.forward(idx, idx).logits * w).backward();
    CHECK(max_abs_diff(g_wte, model.wte->weight.grad()) < 1e-5);
    CHECK(max_abs_diff(g_fc, model.h->at<models::Block>(0)->mlp->c_fc->weight.grad()) < 1e-5);
  }
}

TEST_CASE("gpt_num_params is nanoGPT's count") {
  for (bool bias : {true, false}) {
    INFO("bias " << bias);
    models::GPTConfig c = small_config(bias);
    CHECK(gpt_num_params(c) == models::GPT(c).num_params_non_embedding());
  }
  // The laptop recipe (config/shakespeare_char_cpu.cfg) and the GPU recipe
  // (config/shakespeare_char.cfg: 6 layers, 6 heads, C = 384), both with bias = false.
  models::GPTConfig laptop;
  laptop.vocab_size = 65, laptop.block_size = 64, laptop.n_layer = 4, laptop.n_head = 4;
  laptop.n_embd = 128, laptop.bias = false;
  CHECK(gpt_num_params(laptop) == 795904);
  models::GPTConfig gpu = laptop;
  gpu.block_size = 256, gpu.n_layer = 6, gpu.n_head = 6, gpu.n_embd = 384;
  CHECK(gpt_num_params(gpu) == 10646784);
}
