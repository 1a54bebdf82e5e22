// attic bench train: the GPT's training step, timed, at a recipe's shape or any other, and
// the sweep over model width and context length that `make bench-peer` sets against PyTorch.
#pragma once

#include <cstdint>
#include <string>

#include <vector>

#include "tensor/dtype.h"

namespace attic::lab {

// One shape of the step: batch B of block_size tokens through a GPT of n_layer blocks,
// n_head heads, width n_embd, dropout p, vocabulary 65 (Shakespeare's characters).
struct TrainShape {
  std::string name = "cpu";
  int64_t batch_size = 12, block_size = 64, n_layer = 4, n_head = 4, n_embd = 128;
  double dropout = 0.0;
  DType dtype = kFloat32;  // or kBFloat16: the forward under autocast (autograd/autocast_mode.h)
};

// "cpu": config/shakespeare_char_cpu.cfg's shape; "gpu-size": config/shakespeare_char.cfg's.
TrainShape train_preset(const std::string& preset);

// The sweep: the laptop shape with one axis changed at a time, n_embd 128, 256, 384, 768 at
// block 64, then block 256 and 1024 at n_embd 128 (the point 128 / 64 once).
std::vector<TrainShape> train_sweep();

// Median ms per step (forward, backward, clip_grad_norm_, AdamW, zero_grad) over `iters`
// steps after `warmup`, with its phases, CPU time, page faults per step, the peak bytes
// of attic's allocator beyond what was held before, and the process's peak RSS. One line
// (or one JSON object) per shape.
// products (CPU only, warmup >= 1): the last warm-up step's gemm calls are recorded, and
// after each timed step they are replayed alone (cpu::GemmReplay); adds their median ms,
// their GFLOP and the step's median over theirs: how far the step is from its GEMM floor.
int bench_train(const TrainShape& shape, const std::string& attention, Device device,
                int64_t threads, int64_t iters, int64_t warmup, bool products, bool json);

}  // namespace attic::lab
