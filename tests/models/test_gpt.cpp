// karpathy/nanoGPT's GPT (model.py): its parameter counts and names, lm_head tied to wte,
// the init statistics, causality, the initial loss ln(vocab), and generation.
#include <cmath>
#include <filesystem>
#include <random>
#include <string>

#include "helpers.h"
#include "models/gpt.h"
#include "nn/safetensors.h"
#include "optim/optim.h"

using namespace attic;
using attic::testing::error_message;
using models::GPT;
using models::GPTConfig;
namespace fs = std::filesystem;

namespace {

GPTConfig cpu_config() {  // the laptop recipe
  GPTConfig c;
  c.block_size = 64;
  c.vocab_size = 65;
  c.n_layer = 4;
  c.n_head = 4;
  c.n_embd = 128;
  c.bias = false;
  return c;
}

GPTConfig tiny_config() {
  GPTConfig c;
  c.block_size = 8;
  c.vocab_size = 11;
  c.n_layer = 2;
  c.n_head = 2;
  c.n_embd = 16;
  c.bias = true;
  return c;
}

double stddev(const Tensor& t) {
  const std::vector<double> v = t.to_vector<double>();
  double m = 0, s = 0;
  for (double x : v) m += x;
  m /= double(v.size());
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / double(v.size()));
}

}  // namespace

TEST_CASE("GPT parameter counts match nanoGPT's", "[gpt]") {
  manual_seed(0);
  CHECK(GPT(cpu_config()).num_params_non_embedding() == 795904);
  GPTConfig gpu = cpu_config();  // config/shakespeare_char.cfg
  gpu.block_size = 256;
  gpu.n_layer = 6;
  gpu.n_head = 6;
  gpu.n_embd = 384;
  CHECK(GPT(gpu).num_params_non_embedding() == 10646784);
}

TEST_CASE("GPT parameter names are nanoGPT's", "[gpt]") {
  GPT m(tiny_config());
  const nn::NamedTensors named = m.named_parameters();
  std::vector<std::string> names;
  for (auto& [n, t] : named) names.push_back(n);
  CHECK(names[0] == "transformer.wte.weight");
  CHECK(names[1] == "transformer.wpe.weight");
  CHECK(names[2] == "transformer.h.0.ln_1.weight");
  CHECK(names[3] == "transformer.h.0.ln_1.bias");
  CHECK(names[4] == "transformer.h.0.attn.c_attn.weight");
  CHECK(names.back() == "transformer.ln_f.bias");
  // the tied lm_head.weight is listed once as a parameter, but the state dict has both names
  const nn::StateDict sd = m.state_dict();
  CHECK(sd.count("lm_head.weight") == 1);
  CHECK(sd.count("transformer.h.1.mlp.c_proj.bias") == 1);
  CHECK(sd.size() == named.size() + 1);
}

TEST_CASE("GPT ties lm_head to wte: one storage, and a step moves both", "[gpt]") {
  manual_seed(1);
  GPT m(tiny_config());
  CHECK(m.lm_head->weight.is_same(m.wte->weight));
  Tensor before = m.wte->weight.clone().detach();
  optim::SGD opt(m.parameters(), optim::SGDOptions(0.1));
  Tensor idx = randint(0, 11, {2, 8});
  m.forward(idx, randint(0, 11, {2, 8})).loss.backward();
  opt.step();
  CHECK(m.lm_head->weight.shares_storage(m.wte->weight));
  CHECK(sum(abs(m.wte->weight - before)).item<double>() > 0);
  CHECK(m.lm_head->weight.to_vector<float>() == m.wte->weight.to_vector<float>());
}

// The three ways a nanoGPT checkpoint can hold the tied weight: under both names (attic's
// and PyTorch's state_dict()), or once, as safetensors' save_model and Hugging Face write it.
TEST_CASE("GPT loads the tied weight under either name or both, strictly", "[gpt]") {
  manual_seed(2);
  GPT src(tiny_config());
  const Tensor idx = randint(0, 11, {2, 8});
  const std::vector<float> want = src.forward(idx).logits.to_vector<float>();
  const std::vector<float> wte = src.wte->weight.to_vector<float>();
  const fs::path dir = fs::temp_directory_path() /
                       ("attic_gpt_tied_" + std::to_string(std::random_device()()));
  fs::create_directories(dir);
  for (const char* dropped : {"", "lm_head.weight", "transformer.wte.weight"}) {
    INFO("dropped: " << dropped);
    nn::StateDict dict = src.state_dict();
    dict.erase(dropped);
    const std::string path = (dir / "ckpt.safetensors").string();
    nn::save_safetensors(path, dict);
    manual_seed(3);  // other values than src's
    GPT m(tiny_config());
    REQUIRE(m.wte->weight.to_vector<float>() != wte);
    nn::load(m, path);  // strict
    CHECK(m.lm_head->weight.is_same(m.wte->weight));  // the tie stands
    CHECK(m.wte->weight.to_vector<float>() == wte);
    CHECK(m.state_dict().at("lm_head.weight").is_same(m.state_dict().at("transformer.wte.weight")));
    CHECK(m.forward(idx).logits.to_vector<float>() == want);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_CASE("GPT init: N(0, 0.02), c_proj scaled by 1/sqrt(2 n_layer), biases 0, LayerNorm 1", "[gpt]") {
  manual_seed(2);
  GPTConfig c = cpu_config();
  c.n_layer = 6;
  c.n_embd = 384;
  c.n_head = 6;
  c.bias = true;
  GPT m(c);
  const double proj = 0.02 / std::sqrt(12.0);  // 0.00577
  CHECK(stddev(m.h->at<models::Block>(0)->attn_as<nn::CausalSelfAttention>()->c_proj->weight) == Approx(proj).epsilon(0.03));
  CHECK(stddev(m.h->at<models::Block>(5)->mlp->c_proj->weight) == Approx(proj).epsilon(0.03));
  CHECK(stddev(m.h->at<models::Block>(0)->attn_as<nn::CausalSelfAttention>()->c_attn->weight) == Approx(0.02).epsilon(0.03));
  CHECK(stddev(m.h->at<models::Block>(3)->mlp->c_fc->weight) == Approx(0.02).epsilon(0.03));
  CHECK(stddev(m.wpe->weight) == Approx(0.02).epsilon(0.05));
  CHECK(sum(abs(m.h->at<models::Block>(2)->mlp->c_fc->bias)).item<double>() == 0);
  CHECK(m.ln_f->weight.to_vector<float>() == std::vector<float>(384, 1.0f));
}

TEST_CASE("GPT is causal: logits at t do not depend on tokens after t", "[gpt]") {
  manual_seed(3);
  GPT m(tiny_config());
  Tensor idx = randint(0, 11, {2, 8});
  Tensor targets = zeros({2, 8}, kInt64);
  Tensor a = m.forward(idx, targets).logits;
  Tensor changed = idx.clone();
  changed.narrow(1, 5, 3).fill_(3);  // rewrite positions 5, 6, 7
  Tensor b = m.forward(changed, targets).logits;
  CHECK(a.narrow(1, 0, 5).to_vector<float>() == b.narrow(1, 0, 5).to_vector<float>());
  CHECK(a.narrow(1, 5, 3).to_vector<float>() != b.narrow(1, 5, 3).to_vector<float>());
}

TEST_CASE("GPT's initial loss is about ln(vocab)", "[gpt]") {
  manual_seed(4);
  GPT m(cpu_config());
  Tensor idx = randint(0, 65, {4, 64});
  const double loss = m.forward(idx, randint(0, 65, {4, 64})).loss.item<double>();
  CHECK(loss == Approx(std::log(65.0)).margin(0.1));  // 4.17
}

TEST_CASE("GPT without targets returns only the last position's logits", "[gpt]") {
  GPT m(tiny_config());
  Tensor idx = randint(0, 11, {3, 5});
  GPT::Output out = m.forward(idx);
  CHECK(out.logits.shape() == Shape{3, 1, 11});
  CHECK_FALSE(out.loss.defined());
  Tensor full = m.forward(idx, zeros({3, 5}, kInt64)).logits;
  CHECK(full.shape() == Shape{3, 5, 11});
  CHECK_THAT(out.logits.to_vector<double>(),
             attic::testing::ApproxValues(full.narrow(1, 4, 1).to_vector<double>(), 1e-5));
}

TEST_CASE("GPT rejects sequences longer than block_size and bad inputs", "[gpt]") {
  GPT m(tiny_config());
  CHECK(error_message([&] { m.forward(zeros({1, 9}, kInt64)); }) ==
        "GPT: cannot forward a sequence of length 9, block size is only 8");
  CHECK(error_message([&] { m.forward(zeros({9}, kInt64)); }) ==
        "GPT: idx must be an int64 tensor [B, T], got [9]");
  GPTConfig bad = tiny_config();
  bad.n_head = 3;
  CHECK(error_message([&] { GPT g(bad); }) == "GPT: n_embd 16 is not a multiple of n_head 3");
}

TEST_CASE("GPT overfits one batch", "[gpt][e2e]") {
  manual_seed(5);
  GPT m(tiny_config());
  Tensor x = randint(0, 11, {4, 8}), y = randint(0, 11, {4, 8});
  optim::AdamW opt(m.parameters(), optim::AdamWOptions(1e-2).weight_decay(0.0));
  double first = 0, last = 0;
  for (int it = 0; it < 150; ++it) {
    Tensor loss = m.forward(x, y).loss;
    if (it == 0) first = loss.item<double>();
    last = loss.item<double>();
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  CHECK(first > 2.0);
  CHECK(last < 0.05);  // 32 random targets memorized
}

TEST_CASE("generate: greedy equals top_k = 1, and sampling is seeded", "[gpt]") {
  manual_seed(6);
  GPT m(tiny_config());
  Tensor prompt = tensor({{1, 2, 3}}, kInt64);
  Generator g1(9), g2(9), g3(9), g4(10);
  Tensor greedy = m.generate(prompt, 10, 0.0, 0, &g1);
  Tensor top1 = m.generate(prompt, 10, 0.8, 1, &g2);
  CHECK(greedy.shape() == Shape{1, 13});
  CHECK(greedy.to_vector<int64_t>() == top1.to_vector<int64_t>());
  Tensor s1 = m.generate(prompt, 20, 1.0, 0, &g3);
  Generator g5(9);
  CHECK(s1.to_vector<int64_t>() == m.generate(prompt, 20, 1.0, 0, &g5).to_vector<int64_t>());
  // longer than block_size: the context is cropped, generation goes on
  Tensor longer = m.generate(prompt, 12, 1.0, 0, &g4);
  CHECK(longer.shape() == Shape{1, 15});
  for (int64_t t : longer.to_vector<int64_t>()) CHECK((t >= 0 && t < 11));
  CHECK(m.is_training());  // generate restores the mode it found
}
