// Chapter 21: trading compute for memory. A six-layer Linformer with dropout, trained one
// step at checkpoint levels C0, C1 and C2 from the same seed: C1 recomputes each layer in
// backward, C2 each head too. The gradients are bit-identical; the peak tensor memory
// (counted by attic's allocator) is not.
#include <cstdio>

#include "models/linformer.h"
#include "tensor/memory.h"

using namespace attic;
using namespace attic::models::linformer;

int main() {
  std::vector<double> reference;
  size_t c0_peak = 0;
  for (Checkpoint level : {Checkpoint::C0, Checkpoint::C1, Checkpoint::C2}) {
    manual_seed(2);
    LinformerOptions o;
    o.input_size = 256;
    o.channels = 32;
    o.dim_k = 16;
    o.dim_ff = 64;
    o.nhead = 4;
    o.depth = 6;
    o.dropout = 0.1;
    o.dropout_ff = 0.1;
    o.parameter_sharing = Sharing::Headwise;
    o.checkpoint_level = level;
    Linformer stack(o);
    Tensor x = randn({2, 256, 32});
    reset_peak_memory(Device::CPU);
    const size_t before = memory_stats(Device::CPU).in_use;
    Tensor y = stack.forward(x);
    sum(y * y).backward();
    const size_t peak = memory_stats(Device::CPU).peak - before;
    std::vector<double> grads;
    for (const Tensor& p : stack.parameters())
      for (double g : p.grad().to_vector<double>()) grads.push_back(g);
    if (level == Checkpoint::C0) {
      reference = grads;
      c0_peak = peak;
    }
    std::printf("%s: peak %7.1f KiB (%.2fx C0), gradients %s C0's\n", to_string(level).c_str(), peak / 1024.0,
                double(peak) / double(c0_peak), grads == reference ? "bit-identical to" : "differ from");
  }
  return 0;
}
