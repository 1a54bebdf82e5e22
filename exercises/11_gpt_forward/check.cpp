// The check of chapter 11's exercise. The parallel block is checked against the library's
// own block by superposition: with ln_2 given ln_1's weights, the library's block with its
// MLP switched off computes x + attn(ln_1(x)), and with its attention switched off
// x + mlp(ln_1(x)); a parallel block's update is the sum of those two. The GPT of parallel
// blocks is checked against GPT::forward where the two must agree (every MLP off), and
// against its own blocks elsewhere; the parameter count against num_params_non_embedding().
#include "tests/catch.h"

#include <cmath>

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

// Sets a Linear's output to 0 for every input (weight and bias zeroed): the sublayer that
// ends in it adds nothing to the stream.
void switch_off(nn::Linear& out) {
  NoGradGuard no_grad;
  out.weight.zero_();
  if (out.bias.defined()) out.bias.zero_();
}

// Copies of a Linear's weight and bias, to put back after switch_off.
struct Saved {
  nn::Linear& linear;
  Tensor weight, bias;
  explicit Saved(nn::Linear& l)
      : linear(l), weight(l.weight.clone()), bias(l.bias.defined() ? l.bias.clone() : Tensor()) {}
  ~Saved() {
    NoGradGuard no_grad;
    linear.weight.copy_(weight);
    if (bias.defined()) linear.bias.copy_(bias);
  }
};

// Draws the block's Linear weights again at the scale 1/√fan_in, and its Linear biases at
// 0.1: at nanoGPT's init (std 0.02) each sublayer's update is a few thousandths of the stream,
// and the parallel block and nanoGPT's differ by about 4e-5, too little to tell from rounding.
// Drawn so, they differ by about 1.
void widen(models::Block& b) {
  NoGradGuard no_grad;
  for (auto& [name, p] : b.named_parameters()) {
    if (p.dim() == 2) p.copy_(randn(p.shape()) * (1.0 / std::sqrt(double(p.size(1)))));
    else if (!name.starts_with("ln_") && name.ends_with(".bias")) p.copy_(0.1 * randn(p.shape()));
  }
}

// model's blocks, every one widened.
void widen(models::GPT& model) {
  for (size_t i = 0; i < model.h->size(); ++i) widen(*model.h->at<models::Block>(i));
}

nn::Linear& attn_out(models::Block& b) { return *b.attn_as<nn::CausalSelfAttention>()->c_proj; }
nn::Linear& mlp_out(models::Block& b) { return *b.mlp->c_proj; }

}  // namespace

TEST_CASE("parallel_block_forward adds the attention's and the MLP's updates of one ln_1(x)") {
  set_num_threads(1);
  for (bool bias : {true, false}) {
    INFO("bias " << bias);
    manual_seed(1);
    models::GPT model(small_config(bias));
    auto& block = *model.h->at<models::Block>(1);
    widen(block);
    {  // ln_1 away from its init of 1 and 0, and ln_2 the same, so that ln_2(x) = ln_1(x)
      NoGradGuard no_grad;
      block.ln_1->weight.copy_(1.0 + 0.5 * randn({24}));
      if (bias) block.ln_1->bias.copy_(0.1 * randn({24}));
      block.ln_2->weight.copy_(block.ln_1->weight);
      if (bias) block.ln_2->bias.copy_(block.ln_1->bias);
    }
    const Tensor x = randn({2, 10, 24});
    const Tensor y = parallel_block_forward(block, x);
    REQUIRE(y.shape() == x.shape());

    Tensor attn_only, mlp_only;
    {
      Saved s(mlp_out(block));
      switch_off(mlp_out(block));
      attn_only = block.forward(x);  // x + attn(ln_1(x))
    }
    {
      Saved s(attn_out(block));
      switch_off(attn_out(block));
      mlp_only = block.forward(x);  // x + mlp(ln_2(x)), and ln_2(x) = ln_1(x) here
    }
    CHECK(max_abs_diff(y - x, (attn_only - x) + (mlp_only - x)) < 1e-5);
    // nanoGPT's block is not the parallel one: its MLP reads what the attention added.
    CHECK(max_abs_diff(y, block.forward(x)) > 1e-3);
    {  // ln_2 plays no part
      NoGradGuard no_grad;
      block.ln_2->weight.mul_(3.0);
    }
    CHECK(max_abs_diff(parallel_block_forward(block, x), y) == 0.0);
  }
}

TEST_CASE("parallel_gpt_logits is GPT::forward with every block a parallel one") {
  set_num_threads(1);
  for (bool bias : {true, false}) {
    INFO("bias " << bias);
    manual_seed(2);
    models::GPT model(small_config(bias));
    widen(model);
    const Tensor idx = randint(0, 13, {3, 16});

    // With every MLP off, a parallel block and nanoGPT's compute the same x + attn(ln_1(x)),
    // so the two GPTs give the same logits: the embeddings, the loop and the head are checked.
    {
      manual_seed(2);
      models::GPT off(small_config(bias));  // the same weights as model
      widen(off);
      for (size_t i = 0; i < off.h->size(); ++i) switch_off(mlp_out(*off.h->at<models::Block>(i)));
      const Tensor mine = parallel_gpt_logits(off, idx);
      const Tensor library = off.forward(idx, idx).logits;  // with targets: all T positions
      REQUIRE(mine.shape() == library.shape());
      CHECK(max_abs_diff(mine, library) < 1e-5);
    }

    // With every module on: the head applied to the blocks run one after another.
    const Tensor logits = parallel_gpt_logits(model, idx);
    const Tensor pos = arange(0, 16.0, 1, TensorOptions(kInt64));
    Tensor x = model.wte->forward(idx) + model.wpe->forward(pos);
    for (size_t i = 0; i < model.h->size(); ++i) x = parallel_block_forward(*model.h->at<models::Block>(i), x);
    CHECK(max_abs_diff(logits, model.lm_head->forward(model.ln_f->forward(x))) < 1e-5);
    CHECK(max_abs_diff(logits, model.forward(idx, idx).logits) > 1e-3);

    // Its gradient reaches every block's ln_1 and c_fc, and no ln_2.
    model.zero_grad();
    sum(logits * randn(logits.shape())).backward();
    for (size_t i = 0; i < model.h->size(); ++i) {
      INFO("block " << i);
      auto& b = *model.h->at<models::Block>(i);
      CHECK(max(abs(b.ln_1->weight.grad())).item<double>() > 0.0);
      CHECK(max(abs(b.mlp->c_fc->weight.grad())).item<double>() > 0.0);
      const Tensor g = b.ln_2->weight.grad();
      CHECK((!g.defined() || max(abs(g)).item<double>() == 0.0));
    }
  }
}

TEST_CASE("gpt_num_params is nanoGPT's count") {
  for (bool bias : {true, false}) {
    INFO("bias " << bias);
    models::GPTConfig c = small_config(bias);
    CHECK(gpt_num_params(c) == models::GPT(c).num_params_non_embedding());
  }
  // The laptop recipe (config/shakespeare_char_cpu.cfg) and the GPU recipe
  // (config/shakespeare_char.cfg: 6 layers, 6 heads, C = 384), both with bias = false, and
  // GPT-2 small's shape with biases, for which nanoGPT prints 123.65M (124M with wpe).
  models::GPTConfig laptop;
  laptop.vocab_size = 65, laptop.block_size = 64, laptop.n_layer = 4, laptop.n_head = 4;
  laptop.n_embd = 128, laptop.bias = false;
  CHECK(gpt_num_params(laptop) == 795904);
  models::GPTConfig gpu = laptop;
  gpu.block_size = 256, gpu.n_layer = 6, gpu.n_head = 6, gpu.n_embd = 384;
  CHECK(gpt_num_params(gpu) == 10646784);
  models::GPTConfig gpt2 = gpu;
  gpt2.vocab_size = 50257, gpt2.block_size = 1024, gpt2.n_layer = 12, gpt2.n_head = 12;
  gpt2.n_embd = 768, gpt2.bias = true;
  CHECK(gpt_num_params(gpt2) == 123653376);
}
