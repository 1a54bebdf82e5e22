#include "models/gpt/gpt.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/sampling.h"
#include "models/registry.h"

namespace attic::models {

void GPTConfig::validate() const {
  ATTIC_CHECK(block_size > 0 && vocab_size > 0 && n_layer > 0 && n_head > 0 && n_embd > 0,
              "GPT: block_size, vocab_size, n_layer, n_head and n_embd must be positive (got ",
              block_size, ", ", vocab_size, ", ", n_layer, ", ", n_head, ", ", n_embd, ")");
  ATTIC_CHECK(n_embd % n_head == 0, "GPT: n_embd ", n_embd, " is not a multiple of n_head ", n_head);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, "GPT: dropout must be in [0, 1), got ", dropout);
  ATTIC_CHECK(gelu == "none" || gelu == "tanh", "GPT: gelu must be none (exact) or tanh (GPT-2's), got '",
              gelu, "'");
  // The attention's own options, checked by its declaration before anything is built.
  models::find_attention(attention).options.check(nn::AttentionArgs::parse(attention_options), attention);
}

void GptOptions::bind(util::Options& o) {
  o.bind("gelu", gelu, "the MLP's GELU: none (exact, nanoGPT's nn.GELU) or tanh (GPT-2's)");
}

GPTConfig gpt_config(const ModelSpec& s) {
  const GptOptions m = nn::read_options<GptOptions>(nn::AttentionArgs::parse(s.model_options), "model gpt");
  GPTConfig c;
  c.gelu = m.gelu;
  c.block_size = s.block_size;
  c.vocab_size = s.vocab_size;
  c.n_layer = s.n_layer;
  c.n_head = s.n_head;
  c.n_embd = s.n_embd;
  c.dropout = s.dropout;
  c.bias = s.bias;
  c.attention = s.attention;
  c.attention_options = s.attention_options;
  c.validate();
  return c;
}

nn::MixerOptions mixer_options(const GPTConfig& cfg, int64_t layer) {
  nn::MixerOptions o;
  o.n_embd = cfg.n_embd;
  o.n_head = cfg.n_head;
  o.block_size = cfg.block_size;
  o.n_layer = cfg.n_layer;
  o.layer = layer;
  o.dropout = cfg.dropout;
  o.bias = cfg.bias;
  o.args = nn::AttentionArgs::parse(cfg.attention_options);
  return o;
}

namespace {

// The module that holds the parameter called name in root: for
// "transformer.h.0.attn.c_attn.weight", the Linear at transformer.h.0.attn.c_attn.
const nn::Module* owner_of(const nn::Module& root, const std::string& name) {
  const nn::Module* m = &root;
  for (size_t start = 0, dot; (dot = name.find('.', start)) != std::string::npos; start = dot + 1) {
    const std::string part = name.substr(start, dot - start);
    const nn::Module* child = nullptr;
    for (const auto& [n, c] : m->named_children())
      if (n == part) child = c.get();
    if (!child) return nullptr;
    m = child;
  }
  return m;
}

}  // namespace

GPT::GPT(const GPTConfig& cfg) : config(cfg) {
  cfg.validate();
  transformer = register_module("transformer", std::make_shared<nn::Module>());
  wte = transformer->register_module("wte", std::make_shared<nn::Embedding>(cfg.vocab_size, cfg.n_embd));
  wpe = transformer->register_module("wpe", std::make_shared<nn::Embedding>(cfg.block_size, cfg.n_embd));
  drop = transformer->register_module("drop", std::make_shared<nn::Dropout>(cfg.dropout));
  h = transformer->register_module("h", std::make_shared<nn::ModuleList>());
  for (int64_t i = 0; i < cfg.n_layer; ++i) h->push_back(std::make_shared<Block>(cfg, i));
  ln_f = transformer->register_module("ln_f", std::make_shared<nn::LayerNorm>(cfg.n_embd, cfg.bias));
  lm_head = register_module("lm_head", std::make_shared<nn::Linear>(cfg.n_embd, cfg.vocab_size, false));
  // Weight tying (Press & Wolf 2017): the output projection is the token embedding itself.
  lm_head->weight = lm_head->replace_parameter("weight", wte->weight);

  // nanoGPT's _init_weights, then the scaled c_proj init. _init_weights touches Linear
  // and Embedding modules only: LayerNorm keeps weight 1 and bias 0, and a parameter an
  // attention registers itself (a router, a projection matrix) keeps the init it chose.
  // The tied lm_head.weight is drawn once, as wte.weight.
  const double proj_std = 0.02 / std::sqrt(2.0 * double(cfg.n_layer));
  for (auto& [name, p] : named_parameters()) {
    const nn::Module* owner = owner_of(*this, name);
    if (!dynamic_cast<const nn::Linear*>(owner) && !dynamic_cast<const nn::Embedding*>(owner)) continue;
    if (name.ends_with(".bias")) nn::init::zeros_(p);
    else if (name.ends_with("c_proj.weight")) nn::init::normal_(p, 0.0, proj_std);
    else nn::init::normal_(p, 0.0, 0.02);
  }
}

// idx [B, T] -> the last block's output [B, T, C], before ln_f; outputs, when given,
// receives every block's output in order.
Tensor GPT::blocks_forward(const Tensor& idx, std::vector<Tensor>* outputs) {
  ATTIC_CHECK(idx.defined() && idx.dim() == 2 && idx.dtype() == kInt64,
              "GPT: idx must be an int64 tensor [B, T], got ",
              idx.defined() ? str(idx.shape()) : std::string("undefined"));
  const int64_t T = idx.size(1);
  ATTIC_CHECK(T <= config.block_size, "GPT: cannot forward a sequence of length ", T,
              ", block size is only ", config.block_size);
  Tensor pos = arange(0, double(T), 1, TensorOptions(kInt64).device(idx.device()));
  Tensor x = drop->forward(wte->forward(idx) + wpe->forward(pos));  // [B, T, C] + [T, C]
  // x_0 .. x_{i−1}: what each block before block i took in, kept only when an attention
  // reads them (reflex, route). Otherwise, in a forward without a graph (eval, sampling),
  // each block's input is freed as soon as the block has run.
  const bool keep = reads_earlier();
  std::vector<Tensor> inputs;
  if (keep) inputs.reserve(h->size());
  for (size_t i = 0; i < h->size(); ++i) {
    const nn::MixerContext ctx{.layer = int64_t(i), .earlier = inputs, .training = is_training()};
    Tensor next = h->at<Block>(i)->forward(x, ctx);
    if (keep) inputs.push_back(x);
    x = next;
    if (outputs) outputs->push_back(x);
  }
  return x;
}

bool GPT::reads_earlier() const {
  for (size_t i = 0; i < h->size(); ++i)
    if (h->at<Block>(i)->attn->reads_earlier()) return true;
  return false;
}

std::vector<Tensor> GPT::block_outputs(const Tensor& idx) {
  std::vector<Tensor> outputs;
  blocks_forward(idx, &outputs);
  return outputs;
}

GPT::Output GPT::forward(const Tensor& idx, const Tensor& targets) {
  Tensor x = blocks_forward(idx, nullptr);
  const int64_t T = idx.size(1);
  x = ln_f->forward(x);

  Output out;
  if (targets.defined()) {
    ATTIC_CHECK(targets.shape() == idx.shape(), "GPT: targets ", str(targets.shape()),
                " must have idx's shape ", str(idx.shape()));
    out.logits = lm_head->forward(x);  // [B, T, V]
    out.loss = cross_entropy(out.logits.view({-1, config.vocab_size}), targets.reshape({-1}), -1);
  } else {
    // Inference needs only the last position: skip the [B, T, V] projection.
    out.logits = lm_head->forward(x.narrow(1, T - 1, 1));  // [B, 1, V]
  }
  return out;
}

std::optional<GPT::DecodeState> GPT::start_decoding() const {
  std::vector<const nn::CausalMixer*> mixers;
  for (size_t i = 0; i < h->size(); ++i) mixers.push_back(h->at<Block>(i)->attn.get());
  return models::start_decoding(mixers);
}

// idx [B, t] -> [B, 1, V]: forward() for the t new tokens, at positions length .. length+t−1,
// with each block's attention reading and extending its state instead of the past tokens.
Tensor GPT::step(DecodeState& state, const Tensor& idx) {
  const int64_t t = idx.size(1), L = state.length;
  ATTIC_CHECK(t >= 1 && L + t <= config.block_size, "GPT::step: ", L, " tokens seen and ", t,
              " more exceed block_size ", config.block_size);
  Tensor pos = arange(double(L), double(L + t), 1, TensorOptions(kInt64).device(idx.device()));
  Tensor x = drop->forward(wte->forward(idx) + wpe->forward(pos));  // [B, t, C]
  const bool keep = reads_earlier();
  std::vector<Tensor> inputs;  // as in blocks_forward
  for (size_t i = 0; i < h->size(); ++i) {
    const nn::MixerContext ctx{.layer = int64_t(i), .earlier = inputs, .training = is_training()};
    Tensor next = h->at<Block>(i)->step(*state.layers[i], x, ctx);
    if (keep) inputs.push_back(x);
    x = next;
  }
  state.length = L + t;
  return lm_head->forward(ln_f->forward(x.narrow(1, t - 1, 1)));  // [B, 1, V]
}

Tensor GPT::generate(const Tensor& idx, int64_t max_new_tokens, double temperature,
                     int64_t top_k, Generator* gen, bool use_cache) {
  return generate_incremental(*this, idx, max_new_tokens, config.block_size, config.vocab_size,
                              temperature, top_k, gen ? *gen : default_generator(), use_cache);
}

int64_t GPT::num_params_non_embedding() const { return num_parameters() - wpe->weight.numel(); }

}  // namespace attic::models
