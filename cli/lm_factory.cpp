#include "cli/lm_factory.h"

#include "models/gpt.h"
#include "models/transformer/pooled_lm.h"

namespace attic::cli {

namespace {

class GptLM final : public TrainableLM {
 public:
  explicit GptLM(const models::GPTConfig& c) : model(c) {}
  nn::Module& module() override { return model; }
  Tensor loss(const Tensor& x, const Tensor& y) override { return model.forward(x, y).loss; }
  Tensor generate(const Tensor& idx, int64_t n, double temperature, int64_t top_k,
                  Generator* gen) override {
    return model.generate(idx, n, temperature, top_k, gen);
  }
  int64_t reported_params() const override { return model.num_params_non_embedding(); }
  optim::AdamW configure_optimizers(double weight_decay, double learning_rate,
                                    std::pair<double, double> betas) override {
    return model.configure_optimizers(weight_decay, learning_rate, betas);
  }
  models::GPT model;
};

class PooledLMAdapter final : public TrainableLM {
 public:
  explicit PooledLMAdapter(const models::PooledLMConfig& c) : model(c) {}
  nn::Module& module() override { return model; }
  // x [B, L], y [B, L]: y's last column, x's next token, is the target
  Tensor loss(const Tensor& x, const Tensor& y) override {
    return model.forward(x, y.select(1, y.size(1) - 1).contiguous()).loss;
  }
  Tensor generate(const Tensor& idx, int64_t n, double temperature, int64_t top_k,
                  Generator* gen) override {
    return model.generate(idx, n, temperature, top_k, gen);
  }
  int64_t reported_params() const override { return model.num_parameters(); }
  optim::AdamW configure_optimizers(double weight_decay, double learning_rate,
                                    std::pair<double, double> betas) override {
    return model.configure_optimizers(weight_decay, learning_rate, betas);
  }
  models::PooledLM model;
};

}  // namespace

std::unique_ptr<TrainableLM> make_lm(const TrainConfig& cfg, int64_t vocab_size) {
  if (cfg.model == "pooled_lm") {
    models::PooledLMConfig c;
    c.vocab_size = vocab_size;
    c.window = cfg.block_size;
    c.n_layer = cfg.n_layer;
    c.n_head = cfg.n_head;
    c.n_embd = cfg.n_embd;
    c.dropout = cfg.dropout;
    c.attention = nn::parse_attention_kind(cfg.attention);
    return std::make_unique<PooledLMAdapter>(c);
  }
  return std::make_unique<GptLM>(cfg.model_config(vocab_size));
}

}  // namespace attic::cli
