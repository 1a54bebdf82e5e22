// optim/decay_groups.h and the models' configure_optimizers: nanoGPT's two AdamW groups.
#include <algorithm>

#include "helpers.h"
#include "models/gpt.h"
#include "models/transformer/transformer.h"
#include "optim/optim.h"

using namespace attic;

namespace {

std::vector<std::string> names(const nn::NamedTensors& ts) {
  std::vector<std::string> out;
  for (const auto& [name, t] : ts) out.push_back(name);
  return out;
}

// The optimizer holds exactly the groups' tensors, in order, with nanoGPT's decays.
void check_optimizer(const optim::AdamW& opt, const optim::DecayGroups& g, double wd, double lr) {
  REQUIRE(opt.param_groups().size() == 2);
  const nn::NamedTensors* want[2] = {&g.decay, &g.no_decay};
  for (size_t k = 0; k < 2; ++k) {
    const optim::ParamGroup& group = opt.param_groups()[k];
    CHECK(group.weight_decay == (k == 0 ? wd : 0.0));
    CHECK(group.lr == lr);
    REQUIRE(group.params.size() == want[k]->size());
    for (size_t i = 0; i < group.params.size(); ++i) CHECK(group.params[i].is_same((*want[k])[i].second));
  }
  CHECK(opt.betas() == std::pair<double, double>{0.9, 0.95});
}

}  // namespace

TEST_CASE("GPT::configure_optimizers makes nanoGPT's groups of its Shakespeare model",
          "[optim][decay_groups][gpt]") {
  // karpathy/nanoGPT's config/train_shakespeare_char.py: 6 layers, 6 heads, 384 wide,
  // context 256, 65 characters, no biases.
  models::GPTConfig c;
  c.block_size = 256;
  c.vocab_size = 65;
  c.n_layer = 6;
  c.n_head = 6;
  c.n_embd = 384;
  c.dropout = 0.2;
  c.bias = false;
  models::GPT gpt(c);
  const optim::DecayGroups g = optim::decay_groups(gpt);
  // The two lines nanoGPT's configure_optimizers prints for this model.
  CHECK(g.summary() ==
        "num decayed parameter tensors: 26, with 10,740,096 parameters\n"
        "num non-decayed parameter tensors: 13, with 4,992 parameters\n");
  std::vector<std::string> decay = {"transformer.wte.weight", "transformer.wpe.weight"}, no_decay;
  for (int i = 0; i < 6; ++i) {
    const std::string h = "transformer.h." + std::to_string(i) + ".";
    for (const char* n : {"attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight"})
      decay.push_back(h + n);
    no_decay.push_back(h + "ln_1.weight");
    no_decay.push_back(h + "ln_2.weight");
  }
  no_decay.emplace_back("transformer.ln_f.weight");
  // lm_head.weight is wte's tensor (weight tying): it appears once, as in PyTorch.
  CHECK(names(g.decay) == decay);
  CHECK(names(g.no_decay) == no_decay);
  check_optimizer(gpt.configure_optimizers(0.1, 1e-3, {0.9, 0.95}), g, 0.1, 1e-3);
}

TEST_CASE("the pooled LM and the encoder-decoder decay their matrices, not their biases and gains",
          "[optim][decay_groups]") {
  models::PooledLMConfig p;
  p.vocab_size = 7;
  p.window = 5;
  p.n_layer = 2;
  p.n_head = 2;
  p.n_embd = 8;
  models::PooledLM lm(p);
  models::EncoderDecoderConfig e;
  models::EncoderDecoder ed(e);
  for (nn::Module* m : std::vector<nn::Module*>{&lm, &ed}) {
    const optim::DecayGroups g = optim::decay_groups(*m);
    for (const auto& [name, t] : g.decay) CHECK(t.dim() >= 2);
    for (const auto& [name, t] : g.no_decay) CHECK(t.dim() < 2);
    CHECK(g.decay.size() + g.no_decay.size() == m->named_parameters().size());
    CHECK(!g.decay.empty());
    CHECK(!g.no_decay.empty());
  }
  check_optimizer(lm.configure_optimizers(0.05, 2e-3, {0.9, 0.95}), optim::decay_groups(lm), 0.05, 2e-3);
  check_optimizer(ed.configure_optimizers(0.05, 2e-3, {0.9, 0.95}), optim::decay_groups(ed), 0.05, 2e-3);
  // the head's weight decays, its bias does not
  const std::vector<std::string> decayed = names(optim::decay_groups(lm).decay);
  CHECK(std::count(decayed.begin(), decayed.end(), "head.weight") == 1);
  CHECK(std::count(decayed.begin(), decayed.end(), "head.bias") == 0);
}

TEST_CASE("decay_groups leaves out parameters that do not require grad", "[optim][decay_groups]") {
  nn::Linear frozen(3, 4);
  frozen.bias.requires_grad_(false);
  const optim::DecayGroups g = optim::decay_groups(frozen);
  CHECK(names(g.decay) == std::vector<std::string>{"weight"});
  CHECK(g.no_decay.empty());
  CHECK(g.summary() ==
        "num decayed parameter tensors: 1, with 12 parameters\n"
        "num non-decayed parameter tensors: 0, with 0 parameters\n");
}
