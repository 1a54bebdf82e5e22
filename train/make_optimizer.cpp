#include "train/make_optimizer.h"

#include "optim/optim.h"

namespace attic::train {

std::unique_ptr<optim::Optimizer> make_optimizer(const TrainConfig& cfg, models::LanguageModel& lm) {
  std::unique_ptr<optim::Optimizer> opt;
  if (cfg.optimizer == "sgd") {
    const optim::DecayGroups g = optim::decay_groups(lm);
    std::vector<optim::ParamGroup> groups(2);
    for (const auto& [name, p] : g.decay) groups[0].params.push_back(p);
    for (const auto& [name, p] : g.no_decay) groups[1].params.push_back(p);
    groups[0].weight_decay = cfg.weight_decay;
    groups[1].weight_decay = 0.0;
    opt.reset(new optim::SGD(std::move(groups), optim::SGDOptions(cfg.learning_rate)
                                                    .momentum(cfg.momentum)
                                                    .dampening(cfg.dampening)
                                                    .nesterov(cfg.nesterov)));
  } else {
    opt.reset(new optim::AdamW(lm.configure_optimizers(cfg.weight_decay, cfg.learning_rate, {cfg.beta1, cfg.beta2})));
  }
  if (cfg.decay_all)
    for (optim::ParamGroup& group : opt->param_groups()) group.weight_decay = cfg.weight_decay;
  return opt;
}

}  // namespace attic::train
