// Chapter 12 exercise, solved: generate written with forward and tensor ops, checked token for
// token against GPT::generate. For each new token, with the sequence idx [1, T]:
//   ctx = the last min(T, block_size) tokens          [1, Tc]
//   l = forward(ctx).logits / temperature             [1, 1, V] -> [V]
//   l[v] = -inf where l[v] < the k-th largest of l    (top_k > 0)
//   p = softmax(l); next = first i with p[0] + ... + p[i] > u, u ~ U[0, 1)
// and temperature 0 takes argmax(l) instead.
#include <algorithm>
#include <functional>
#include <iostream>
#include <limits>

#include "data/data.h"
#include "models/gpt.h"
#include "tensor/threads.h"

using namespace attic;

// idx [1, T0] int64 -> [1, T0 + n].
Tensor my_generate(models::GPT& model, Tensor idx, int64_t n, double temperature,
                   int64_t top_k, Generator& gen) {
  NoGradGuard no_grad;  // no graph: nothing here is differentiated
  model.eval();         // dropout off
  const int64_t V = model.config.vocab_size;
  for (int64_t step = 0; step < n; ++step) {
    const int64_t T = idx.size(1), Tc = std::min(T, model.config.block_size);
    Tensor l = model.forward(idx.narrow(1, T - Tc, Tc).contiguous()).logits.view({V});
    int64_t next = 0;
    if (temperature == 0) {
      next = argmax(l, 0).item<int64_t>();
    } else {
      l = l / temperature;
      if (top_k > 0 && top_k < V) {
        std::vector<float> sorted = l.to_vector<float>();
        std::sort(sorted.begin(), sorted.end(), std::greater<>());
        l = masked_fill(l, lt(l, double(sorted[size_t(top_k - 1)])),
                        -std::numeric_limits<double>::infinity());
      }
      const std::vector<float> p = softmax(l, 0).to_vector<float>();
      double u = gen.uniform();
      next = V - 1;  // if rounding leaves some u over
      for (int64_t i = 0; i < V; ++i)
        if ((u -= p[size_t(i)]) < 0) {
          next = i;
          break;
        }
    }
    idx = cat({idx, full({1, 1}, double(next), kInt64)}, 1);
  }
  model.train();
  return idx;
}

int main() {
  std::cout << std::boolalpha;
  set_num_threads(1);
  manual_seed(1337);
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  models::GPTConfig cfg;
  cfg.block_size = 16;
  cfg.vocab_size = ds.vocab_size();
  cfg.n_layer = 2;
  cfg.n_head = 2;
  cfg.n_embd = 32;
  models::GPT model(cfg);
  const CharTokenizer& tok = ds.tokenizer();
  Tensor prompt = from_vector(tok.encode("ROMEO:"), {1, 6});

  // 40 new tokens: past block_size, so the crop is exercised too.
  struct Setting { double temperature; int64_t top_k; };
  for (Setting s : {Setting{0.0, 0}, Setting{1.0, 0}, Setting{0.8, 5}, Setting{2.0, 0}}) {
    Generator g1(7), g2(7);
    Tensor mine = my_generate(model, prompt, 40, s.temperature, s.top_k, g1);
    Tensor library = model.generate(prompt, 40, s.temperature, s.top_k, &g2);
    std::cout << "temperature " << s.temperature << ", top_k " << s.top_k << ": same tokens "
              << (mine.to_vector<int64_t>() == library.to_vector<int64_t>()) << "\n";
  }

  // Without the crop, forward refuses a context longer than block_size.
  try {
    model.forward(zeros({1, 17}, kInt64));
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
  }
  return 0;
}
