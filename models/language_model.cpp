#include "models/language_model.h"

#include "optim/decay_groups.h"

namespace attic::models {

optim::AdamW LanguageModel::configure_optimizers(double weight_decay, double learning_rate,
                                                 std::pair<double, double> betas) {
  return optim::configure_optimizers(*this, weight_decay, learning_rate, betas);
}

}  // namespace attic::models
