// Chapter 17: the blocks, each with softmax or linear attention, their shapes and
// parameter counts, and the symmetries of the Set Transformer blocks.
#include <iostream>

#include "models/registry.h"
#include "nn/blocks/blocks.h"
#include "tensor/threads.h"

using namespace attic;

double max_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

Tensor permute_rows(const Tensor& x, const std::vector<int64_t>& perm) {
  return index_select(x, 1, from_vector(perm));
}

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  manual_seed(10);
  nn::BlockOptions o;
  o.dim = 16;
  o.hidden = 32;
  o.num_heads = 4;
  o.memory_dim = 12;

  Tensor x = randn({2, 10, 16});    // B = 2 sequences of 10 tokens, d = 16
  Tensor mem = randn({2, 50, 12});  // a memory of 50 rows of width 12
  Tensor latents = randn({2, 4, 16});
  for (const std::string kind : {"softmax", "linear_elu"}) {
    o.attention = models::attention_factory(kind);
    std::cout << kind << ":\n";
    nn::EncoderBlock enc(o);
    nn::DecoderBlock dec(o);
    nn::CrossAttentionBlock perceiver(o);
    std::cout << "  encoder  " << str(enc.forward(x).shape()) << ", " << enc.num_parameters()
              << " parameters\n";
    std::cout << "  decoder  " << str(dec.forward(x, mem).shape()) << ", " << dec.num_parameters()
              << " parameters\n";
    std::cout << "  perceiver latents " << str(latents.shape()) << " read memory "
              << str(mem.shape()) << " -> " << str(perceiver.forward(latents, mem).shape()) << "\n";
  }

  // Set Transformer: a set of 7 elements, in two orders
  const std::vector<int64_t> perm = {3, 6, 0, 5, 1, 4, 2};
  Tensor set = randn({2, 7, 16});
  Tensor shuffled = permute_rows(set, perm);
  nn::SAB sab(16, 4);
  nn::ISAB isab(16, 3, 4);  // 3 inducing points
  nn::PMA pma(16, 1, 4);    // 1 seed: pool the set into one vector
  std::cout << "SAB  equivariant: "
            << (max_diff(sab.forward(shuffled), permute_rows(sab.forward(set), perm)) < 1e-5) << "\n";
  std::cout << "ISAB equivariant: "
            << (max_diff(isab.forward(shuffled), permute_rows(isab.forward(set), perm)) < 1e-5)
            << "\n";
  std::cout << "PMA  invariant:   " << (max_diff(pma.forward(shuffled), pma.forward(set)) < 1e-5)
            << ", output " << str(pma.forward(set).shape()) << "\n";
  return 0;
}
