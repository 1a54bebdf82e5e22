// The Linformer's feed-forward sublayer: FeedForward of the linformer-pytorch package,
//
//   y = dropout2(w_2(dropout(act(w_1(x)))))      act = gelu or relu, both dropouts dropout_ff
//
// with x [B, n, C_in] -> [B, n, C_out]; the widths differ only around ff_intermediate.
#pragma once

#include <memory>
#include <string>

#include "nn/dropout.h"
#include "nn/linear.h"

namespace attic::models::linformer {

class FeedForward : public nn::UnaryModule {
 public:
  FeedForward(int64_t in_channels, int64_t out_channels, int64_t ff_dim, double dropout,
              const std::string& activation = "gelu");
  Tensor forward(const Tensor& x) override;

  std::shared_ptr<nn::Linear> w_1, w_2;
  std::shared_ptr<nn::Dropout> dropout, dropout2;
  std::string activation;
};

}  // namespace attic::models::linformer
