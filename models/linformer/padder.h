// Padder of the linformer-pytorch package: a Linformer reads exactly input_size positions,
// so a shorter input is zero-padded at the end (token id 0 for the LM), run, and cut back:
//
//   y = net([x | 0 … 0])[:, :m]            x [B, m, C] or ids [B, m], m ≤ n
//
// The package passes no mask, so its padded positions feed every E and F projection: padding
// changes the real positions' outputs. attic passes input_mask (pad_mask = true, the
// default): the padded rows of K and V are zero, their projections add only the bias, and
// what padding means holds. pad_mask = false is the package's behaviour, kept because its
// results depend on it. Names: net.* as the package's.
#pragma once

#include <memory>

#include "models/linformer/linformer.h"
#include "models/linformer/linformer_lm.h"

namespace attic::models::linformer {

class Padder : public nn::Module {
 public:
  explicit Padder(std::shared_ptr<LinformerLM> net, bool pad_mask = true);
  explicit Padder(std::shared_ptr<Linformer> net, bool pad_mask = true);

  // ids [B, m] (LM) or x [B, m, C] (stack), m ≤ n -> the net's output for the first m positions.
  Tensor forward(const Tensor& x, const LayerArgs& args = {});

  std::shared_ptr<LinformerLM> lm;
  std::shared_ptr<Linformer> stack;
  bool pad_mask;
};

}  // namespace attic::models::linformer
