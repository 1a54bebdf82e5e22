#include "nn/attention/feed_forward.h"

#include "nn/init.h"

namespace attic::nn {

FeedForward::FeedForward(int64_t dim, int64_t hidden, double dropout) {
  ATTIC_CHECK(dim > 0 && hidden > 0, "FeedForward: dim and hidden must be positive, got ", dim,
              " and ", hidden);
  fc1 = register_module("fc1", std::make_shared<Linear>(dim, hidden));
  fc2 = register_module("fc2", std::make_shared<Linear>(hidden, dim));
  drop = register_module("drop", std::make_shared<Dropout>(dropout));
  for (auto* fc : {fc1.get(), fc2.get()}) {
    init::kaiming_normal_(fc->weight);
    init::zeros_(fc->bias);
  }
}

// x [..., dim] -> [..., dim]
Tensor FeedForward::forward(const Tensor& x) {
  return fc2->forward(drop->forward(relu(fc1->forward(x))));
}

}  // namespace attic::nn
