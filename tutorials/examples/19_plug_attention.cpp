// Chapter 19: an attention of your own, plugged into the GPT. The simplest causal mixer
// there is: each position takes the mean of the values up to it, the "bag of words" that
// Karpathy's "Let's build GPT: from scratch, in code, spelled out" starts from before it
// brings in attention:
//   v = x Wᵀ_v                          c_attn: Linear(C, C)
//   y_t = (1 / (t + 1)) Σ_{s ≤ t} v_s   a running sum over time, divided by the count
//   out = y Wᵀ_o                        c_proj: Linear(C, C)
// For generation it keeps Σ v_s: C numbers per sequence, whatever the length of the text.
#include <iostream>
#include <string>

#include "models/gpt.h"
#include "tensor/threads.h"

using namespace attic;

class CausalMean : public nn::CausalMixer {
 public:
  explicit CausalMean(const nn::MixerOptions& o) {
    o.validate("CausalMean");
    c_attn = register_module("c_attn", std::make_shared<nn::Linear>(o.n_embd, o.n_embd, o.bias));
    c_proj = register_module("c_proj", std::make_shared<nn::Linear>(o.n_embd, o.n_embd, o.bias));
    (void)nn::read_options<nn::NoOptions>(o.args, name());  // no options: attention_options must be empty
  }

  // x [B, T, C] -> [B, T, C]
  Tensor forward(const Tensor& x, const nn::MixerContext&) override {
    const int64_t T = x.size(1);
    Tensor count = arange(1, double(T + 1)).reshape({1, T, 1});  // t + 1 at row t
    return c_proj->forward(cumsum(c_attn->forward(x), 1) / count);
  }

  // The step state: the sum of every value so far.
  struct State : nn::MixerState {
    Tensor sum;  // [B, 1, C]; undefined before the first token
  };
  std::unique_ptr<nn::MixerState> start_decoding() const override {
    return std::make_unique<State>();
  }
  // x [B, t, C]: the t tokens after the st.length seen -> [B, t, C]
  Tensor step(nn::MixerState& state, const Tensor& x, const nn::MixerContext&) override {
    auto& st = dynamic_cast<State&>(state);
    const int64_t t = x.size(1);
    Tensor sums = cumsum(c_attn->forward(x), 1);  // [B, t, C], sums over the new tokens
    if (st.sum.defined()) sums = sums + st.sum;   // ... plus everything before them
    Tensor count = arange(double(st.length + 1), double(st.length + t + 1)).reshape({1, t, 1});
    st.sum = sums.narrow(1, t - 1, 1);
    st.length += t;
    return c_proj->forward(sums / count);
  }

  std::string name() const override { return "mean"; }

  std::shared_ptr<nn::Linear> c_attn, c_proj;
};

int main() {
  set_num_threads(1);
  // 1. One registry line: now --attention=mean works wherever a name is read.
  models::register_attention({"mean", "the mean of the values so far (Karpathy, Let's build GPT)",
                              nn::declare_options<nn::NoOptions>(),
                              [](const nn::MixerOptions& o) { return std::make_shared<CausalMean>(o); },
                              nullptr});
  std::cout << "attentions: " << models::attention_names() << "\n";

  models::GPTConfig cfg;
  cfg.block_size = 16;
  cfg.vocab_size = 10;
  cfg.n_layer = 2;
  cfg.n_head = 2;
  cfg.n_embd = 8;
  cfg.attention = "mean";
  manual_seed(1337);
  models::GPT gpt(cfg);

  // 2. Its weights live under transformer.h.{i}.attn. with its own names.
  for (const auto& [name, p] : gpt.named_parameters())
    if (name.starts_with("transformer.h.0.attn.")) std::cout << name << " " << str(p.shape()) << "\n";

  // 3. Causal: changing the token at t = 5 leaves the logits before t = 5 alone.
  Tensor idx = randint(0, 10, {1, 12}, TensorOptions(kInt64));
  Tensor changed = idx.clone();
  changed[0][5].fill_(double((idx[0][5].item<int64_t>() + 1) % 10));
  Tensor a = gpt.forward(idx, idx).logits, b = gpt.forward(changed, idx).logits;
  std::cout << "logits that changed: t =";
  for (int64_t t = 0; t < 12; ++t)
    if (max(abs(a[0][t] - b[0][t])).item<double>() != 0) std::cout << " " << t;
  std::cout << "\n";

  // 4. Its step state gives generation a cache: the same tokens, without recomputing.
  gpt.eval();
  Tensor prompt = idx.narrow(1, 0, 3);
  Generator g1(7), g2(7);
  Tensor cached = gpt.generate(prompt, 12, 1.0, 0, &g1, /*use_cache=*/true);
  Tensor recomputed = gpt.generate(prompt, 12, 1.0, 0, &g2, /*use_cache=*/false);
  const auto tokens = [](const Tensor& t) {
    std::string s;
    for (int64_t v : t.to_vector<int64_t>()) {
      if (!s.empty()) s += ' ';
      s += std::to_string(v);
    }
    return s;
  };
  std::cout << "cached:     " << tokens(cached) << "\nrecomputed: " << tokens(recomputed) << "\n";
  return 0;
}
