// Padder of the linformer-pytorch package: a Linformer reads exactly input_size positions,
// so a shorter input is zero-padded at the end (token id 0 for the LM), run, and cut back:
//
//   y = net([x | 0 … 0])[:, :m]            x [B, m, C] or ids [B, m], m ≤ n
//
// No mask goes with it: the padded positions feed every E and F projection (the package's
// behaviour, kept: its results depend on it). pad_mask = true passes input_mask so that the
// padded rows of K and V are zero instead, which is what padding means; their projections
// then add only the bias. Names: net.* as the package's.
#pragma once

#include <memory>

#include "models/linformer/linformer.h"
#include "models/linformer/linformer_lm.h"

namespace attic::models::linformer {

class Padder : public nn::Module {
 public:
  explicit Padder(std::shared_ptr<LinformerLM> net, bool pad_mask = false);
  explicit Padder(std::shared_ptr<Linformer> net, bool pad_mask = false);

  // ids [B, m] (LM) or x [B, m, C] (stack), m ≤ n -> the net's output for the first m positions.
  Tensor forward(const Tensor& x, const LayerArgs& args = {});

  std::shared_ptr<LinformerLM> lm;
  std::shared_ptr<Linformer> stack;
  bool pad_mask;
};

}  // namespace attic::models::linformer
