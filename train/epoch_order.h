// Training in epochs (max_epochs > 0): each epoch is one pass over the train split's windows
// in a shuffled order, as a PyTorch DataLoader(shuffle=True) walks a dataset of windows,
// instead of nanoGPT's windows drawn at random offsets for max_iters iterations.
//
// The windows of T = block_size tokens start every epoch_stride tokens (0: every T, the
// disjoint chunks of the Linformer package's tutorial (batchify, bptt); 1: every offset, the
// sliding windows of tonyduan/transformer-blocks' src/train.py):
//   starts  s_j = j · stride, for j = 0 .. W-1, with s_j < len - T (x and y one token later)
//   per epoch e, the order π_e of 0..W-1 is a Fisher–Yates shuffle from a generator of its own
//   (seed, e), so a resumed run reads what an uninterrupted one would, with no state saved;
//   iteration i trains on epoch e = ⌊i / I⌋, and its micro-batch m reads windows
//   π_e[(p · A + m) · B ... + B), p = i mod I, A = gradient_accumulation_steps;
//   I = ⌊W / (A · B)⌋ iterations per epoch: the windows that fill no whole step are left out
//   (DataLoader's drop_last = True), a different W mod (A · B) of them each epoch.
#pragma once

#include <cstdint>
#include <vector>

#include "data/batch.h"
#include "data/dataset.h"
#include "train/train_config.h"

namespace attic::train {

class EpochOrder {
 public:
  // Throws when cfg.max_epochs is 0, or when the split holds fewer windows than one step reads.
  EpochOrder(const TrainConfig& cfg, const Dataset& data);

  int64_t windows() const { return windows_; }                  // W
  int64_t stride() const { return stride_; }
  int64_t iters_per_epoch() const { return iters_per_epoch_; }  // I
  int64_t epochs() const { return epochs_; }
  // E · I: the run trains iterations 0 .. last_iter() - 1 and evaluates once more at last_iter().
  int64_t last_iter() const { return epochs_ * iters_per_epoch_; }
  int64_t epoch_of(int64_t iter) const { return iter / iters_per_epoch_; }
  // The batch of micro-batch `micro` of iteration iter (iter < last_iter()).
  Batch batch(int64_t iter, int64_t micro);
  // π_e, the order of epoch e's windows (by index j; window j starts at j · stride()).
  std::vector<int64_t> order(int64_t epoch) const;

 private:
  const Dataset& data_;
  int64_t seed_, block_size_, batch_size_, accumulation_;
  int64_t stride_, windows_, iters_per_epoch_, epochs_;
  int64_t cached_epoch_ = -1;
  std::vector<int64_t> cached_order_;
};

}  // namespace attic::train
