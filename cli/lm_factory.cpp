#include "cli/lm_factory.h"

#include <type_traits>

#include "models/elita.h"
#include "models/gpt.h"
#include "models/linformer.h"
#include "models/transformer/pooled_lm.h"

namespace attic::cli {

namespace {

// What the models do alike: module(), generate() and configure_optimizers() are the model's.
template <class Model, class Config>
class Adapter : public TrainableLM {
 public:
  explicit Adapter(const Config& c) : model(c) {}
  nn::Module& module() override { return model; }
  Tensor generate(const Tensor& idx, int64_t n, double temperature, int64_t top_k,
                  Generator* gen, bool use_cache) override {
    if constexpr (!std::is_same_v<Model, models::PooledLM>)
      return model.generate(idx, n, temperature, top_k, gen, use_cache);
    else  // the pooled LM attends across its window both ways: no state to carry
      return model.generate(idx, n, temperature, top_k, gen);
  }
  optim::AdamW configure_optimizers(double weight_decay, double learning_rate,
                                    std::pair<double, double> betas) override {
    return model.configure_optimizers(weight_decay, learning_rate, betas);
  }
  Model model;
};

class GptLM final : public Adapter<models::GPT, models::GPTConfig> {
 public:
  using Adapter::Adapter;
  Tensor loss(const Tensor& x, const Tensor& y) override { return model.forward(x, y).loss; }
  int64_t reported_params() const override { return model.num_params_non_embedding(); }
};

class PooledLMAdapter final : public Adapter<models::PooledLM, models::PooledLMConfig> {
 public:
  using Adapter::Adapter;
  // x [B, L], y [B, L]: y's last column, x's next token, is the target
  Tensor loss(const Tensor& x, const Tensor& y) override {
    return model.forward(x, y.select(1, y.size(1) - 1).contiguous()).loss;
  }
  int64_t reported_params() const override { return model.num_parameters(); }
};

class ElitaAdapter final : public Adapter<models::elita::ElitaLM, models::elita::ElitaConfig> {
 public:
  using Adapter::Adapter;
  Tensor loss(const Tensor& x, const Tensor& y) override { return model.forward(x, y).loss; }
  int64_t reported_params() const override { return model.num_parameters(); }
};

class LinformerAdapter final
    : public Adapter<models::linformer::LinformerLM, models::linformer::LinformerLMOptions> {
 public:
  using Adapter::Adapter;
  Tensor loss(const Tensor& x, const Tensor& y) override { return model.loss(x, y); }
  int64_t reported_params() const override { return model.num_parameters(); }
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
    c.attention = cfg.attention;
    return std::make_unique<PooledLMAdapter>(c);
  }
  if (cfg.model == "elita") return std::make_unique<ElitaAdapter>(cfg.elita_config(vocab_size));
  if (cfg.model == "linformer") return std::make_unique<LinformerAdapter>(cfg.linformer_options(vocab_size));
  return std::make_unique<GptLM>(cfg.model_config(vocab_size));
}

}  // namespace attic::cli
