#include "train/epoch_order.h"

#include <limits>
#include <utility>

#include "tensor/error.h"
#include "tensor/random.h"

namespace attic::train {

EpochOrder::EpochOrder(const TrainConfig& cfg, const Dataset& data)
    : data_(data), seed_(cfg.seed), block_size_(cfg.block_size), batch_size_(cfg.batch_size),
      accumulation_(cfg.gradient_accumulation_steps), stride_(cfg.epoch_stride > 0 ? cfg.epoch_stride : cfg.block_size),
      epochs_(cfg.max_epochs) {
  ATTIC_CHECK(epochs_ > 0, "EpochOrder: needs max_epochs > 0, got ", epochs_);
  const int64_t len = data.size(Split::Train);
  // Starts 0, stride, ... below len - T.
  windows_ = len > block_size_ ? (len - block_size_ - 1) / stride_ + 1 : 0;
  iters_per_epoch_ = windows_ / (batch_size_ * accumulation_);
  ATTIC_CHECK(iters_per_epoch_ > 0, "max_epochs: the train split of ", len, " tokens holds ", windows_,
              " windows of block_size = ", block_size_, " every epoch_stride = ", stride_,
              " tokens, fewer than one step reads (batch_size ", batch_size_, " x gradient_accumulation_steps ",
              accumulation_, "); lower epoch_stride or batch_size");
  ATTIC_CHECK(epochs_ <= std::numeric_limits<int64_t>::max() / iters_per_epoch_, "max_epochs = ", epochs_,
              " of ", iters_per_epoch_, " iterations each is more iterations than an int64 counts");
}

std::vector<int64_t> EpochOrder::order(int64_t epoch) const {
  std::vector<int64_t> pi(static_cast<size_t>(windows_));
  for (int64_t j = 0; j < windows_; ++j) pi[size_t(j)] = j;
  // A generator per (seed, epoch); the constant keeps its streams apart from train_batch's
  // per-iteration ones and estimate_loss's small seeds.
  Generator gen((uint64_t(seed_) << 32) ^ uint64_t(epoch) ^ 0x2545F4914F6CDD1Dull);
  // Fisher–Yates: swap each position from the last down with a uniform one at or before it.
  for (int64_t j = windows_ - 1; j > 0; --j) std::swap(pi[size_t(j)], pi[size_t(gen.randint(0, j + 1))]);
  return pi;
}

Batch EpochOrder::batch(int64_t iter, int64_t micro) {
  ATTIC_CHECK(iter >= 0 && iter < last_iter() && micro >= 0 && micro < accumulation_, "EpochOrder::batch: iteration ",
              iter, " micro-batch ", micro, " is outside the ", epochs_, " epochs of ", iters_per_epoch_,
              " iterations of ", accumulation_, " micro-batches");
  const int64_t e = epoch_of(iter);
  if (e != cached_epoch_) {
    cached_order_ = order(e);
    cached_epoch_ = e;
  }
  const int64_t first = ((iter % iters_per_epoch_) * accumulation_ + micro) * batch_size_;
  std::vector<int64_t> starts(static_cast<size_t>(batch_size_));
  for (int64_t b = 0; b < batch_size_; ++b) starts[size_t(b)] = cached_order_[size_t(first + b)] * stride_;
  return data_.get_windows(Split::Train, starts, block_size_);
}

}  // namespace attic::train
