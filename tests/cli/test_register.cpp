// A program's own attention and its own language model, registered from here alone, train
// and sample through the same calls `attic train` and `attic sample` make: nothing in
// cli/, nn/ or models/ knows them.
#include <cmath>
#include <filesystem>

#include "cli/commands.h"
#include "train/restore.h"
#include "cli_helpers.h"
#include "models/gpt/gpt.h"
#include "models/registry.h"
#include "models/sampling.h"
#include "nn/container.h"
#include "nn/embedding.h"
#include "nn/linear.h"
#include "ops/ops.h"
#include "tests/catch.h"

namespace {

using namespace attic;
namespace fs = std::filesystem;

// The causal mean of the values: y_t = c_proj((v_0 + ... + v_t) / (t + 1)), v = c_attn(x).
// x [B, T, C] -> [B, T, C]. One head, no softmax, no options.
class PrefixMean final : public nn::CausalMixer {
 public:
  explicit PrefixMean(const nn::MixerOptions& o) {
    (void)nn::read_options<nn::NoOptions>(o.args, "prefix_mean");
    c_attn = register_module("c_attn", std::make_shared<nn::Linear>(o.n_embd, o.n_embd, o.bias));
    c_proj = register_module("c_proj", std::make_shared<nn::Linear>(o.n_embd, o.n_embd, o.bias));
  }
  Tensor forward(const Tensor& x, const nn::MixerContext&) override {
    const int64_t T = x.size(1);
    const Tensor count = arange(1.0, double(T + 1), 1.0, TensorOptions().device(x.device())).view({1, T, 1});
    return c_proj->forward(cumsum(c_attn->forward(x), 1) / count);
  }
  std::string name() const override { return "prefix_mean"; }
  std::shared_ptr<nn::Linear> c_attn, c_proj;
};

// A language model of n_layer residual MLPs on each token alone (no attention at all):
//   x = wte[idx]; x = x + tanh(h_i(x)) for each layer; logits = head(x)     [B, T, V]
class TokenMLP final : public models::LanguageModel {
 public:
  explicit TokenMLP(const models::ModelSpec& s) : block_size(s.block_size), vocab(s.vocab_size) {
    wte = register_module("wte", std::make_shared<nn::Embedding>(s.vocab_size, s.n_embd));
    h = register_module("h", std::make_shared<nn::ModuleList>());
    for (int64_t i = 0; i < s.n_layer; ++i) h->push_back(std::make_shared<nn::Linear>(s.n_embd, s.n_embd));
    head = register_module("head", std::make_shared<nn::Linear>(s.n_embd, s.vocab_size));
  }
  Tensor logits(const Tensor& idx) {
    Tensor x = wte->forward(idx);
    for (size_t i = 0; i < h->size(); ++i) x = x + tanh(h->at<nn::Linear>(i)->forward(x));
    return head->forward(x);
  }
  Tensor loss(const Tensor& x, const Tensor& y) override {
    return cross_entropy(logits(x).view({-1, vocab}), y.reshape({-1}));
  }
  Tensor generate(const Tensor& idx, int64_t n, double temperature = 1.0, int64_t top_k = 0,
                  Generator* gen = nullptr, bool /*use_cache*/ = true) override {
    return models::generate_tokens(*this, idx, n, block_size, temperature, top_k,
                                   gen ? *gen : default_generator(), [&](const Tensor& ctx) {
                                     const int64_t T = ctx.size(1);
                                     return logits(ctx).select(1, T - 1);  // [B, V]
                                   });
  }
  int64_t block_size, vocab;
  std::shared_ptr<nn::Embedding> wte;
  std::shared_ptr<nn::ModuleList> h;
  std::shared_ptr<nn::Linear> head;
};

void check_token_mlp(const models::ModelSpec& s) {
  ATTIC_CHECK(s.attention == "softmax", "model token_mlp has no attention, got attention = ", s.attention);
  ATTIC_CHECK(s.model_options.empty() && s.attention_options.empty(), "model token_mlp takes no options");
}

void register_once() {
  static const bool done = [] {
    models::register_attention({"prefix_mean", "the causal mean of the values",
                                nn::declare_options<nn::NoOptions>(),
                                [](const nn::MixerOptions& o) { return std::make_shared<PrefixMean>(o); },
                                nullptr});
    models::register_model({"token_mlp", "residual MLPs on each token alone", "",
                            nn::declare_options<nn::NoOptions>(),
                            {"wte.weight", "", "h.", 1, ""}, check_token_mlp,
                            [](const models::ModelSpec& s) -> std::unique_ptr<models::LanguageModel> {
                              check_token_mlp(s);
                              return std::make_unique<TokenMLP>(s);
                            }});
    return true;
  }();
  (void)done;
}

// attic::cli::train(args): what `attic train ARGS` runs after main has split its command line.
void train_ok(const std::vector<std::string>& args) { CHECK(attic::cli::train(args) == 0); }

std::vector<std::string> tiny_args(const attic::testing::Scratch& s, const std::string& out) {
  return {"--dataset=" + s.path("corpus.txt"), "--out_dir=" + s.path(out), "--n_layer=2",
          "--n_head=2", "--n_embd=16", "--block_size=16", "--batch_size=8", "--eval_iters=4",
          "--eval_interval=40", "--max_iters=40", "--warmup_iters=0", "--learning_rate=1e-2",
          "--decay_lr=false", "--dropout=0", "--threads=1"};
}

}  // namespace

TEST_CASE("an attention and a model registered from outside the library train and sample as attic's own",
          "[cli][registry]") {
  register_once();
  attic::testing::Scratch s;
  CHECK(models::attention_names().find("prefix_mean") != std::string::npos);
  CHECK(models::model_names().find("token_mlp") != std::string::npos);

  SECTION("the GPT with the new attention") {
    std::vector<std::string> args = tiny_args(s, "attn");
    args.push_back("--attention=prefix_mean");
    train_ok(args);
    const attic::train::Restored r = attic::train::restore(s.path("attn"));
    CHECK(r.config.attention == "prefix_mean");
    CHECK(r.info.iter_num == 40);
    CHECK(r.info.best_val_loss < std::log(double(r.tokenizer->vocab_size())));
    CHECK(dynamic_cast<models::GPT*>(r.model.get()) != nullptr);
    // Its blocks hold the new attention under its name, so the checkpoint records it.
    CHECK(r.info.attention == "prefix_mean");
  }
  SECTION("the new model") {
    std::vector<std::string> args = tiny_args(s, "model");
    args.push_back("--model=token_mlp");
    train_ok(args);
    const attic::train::Restored r = attic::train::restore(s.path("model"));
    CHECK(dynamic_cast<TokenMLP*>(r.model.get()) != nullptr);
    CHECK(r.info.best_val_loss < std::log(double(r.tokenizer->vocab_size())));
    const Tensor prompt = from_vector<int64_t>({0}, {1, 1});
    Generator gen(7);
    const Tensor out = r.model->generate(prompt, 12, 1.0, 0, &gen);
    CHECK(out.shape() == Shape{1, 13});
    // The registry refuses what the model's check refuses, through the config's validate.
    std::vector<std::string> bad = tiny_args(s, "bad");
    bad.push_back("--model=token_mlp");
    bad.push_back("--attention=linear_elu");
    CHECK_THROWS_WITH(attic::cli::train(bad), "model token_mlp has no attention, got attention = linear_elu");
    CHECK_FALSE(fs::exists(s.path("bad")));
  }
}
