#include "models/linformer/feed_forward.h"

namespace attic::models::linformer {

FeedForward::FeedForward(int64_t in_channels, int64_t out_channels, int64_t ff_dim, double p,
                         const std::string& act)
    : activation(act) {
  ATTIC_CHECK(act == "gelu" || act == "relu", "linformer FeedForward: activation must be gelu or relu, got '",
              act, "'");
  w_1 = register_module("w_1", std::make_shared<nn::Linear>(in_channels, ff_dim));
  w_2 = register_module("w_2", std::make_shared<nn::Linear>(ff_dim, out_channels));
  dropout = register_module("dropout", std::make_shared<nn::Dropout>(p));
  dropout2 = register_module("dropout2", std::make_shared<nn::Dropout>(p));
}

// x [B, n, C_in] -> [B, n, C_out]. gelu is the exact erf form (F.gelu's default).
Tensor FeedForward::forward(const Tensor& x) {
  Tensor h = w_1->forward(x);
  h = activation == "gelu" ? gelu(h) : relu(h);
  return dropout2->forward(w_2->forward(dropout->forward(h)));
}

}  // namespace attic::models::linformer
