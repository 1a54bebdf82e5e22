// Chapter 12: sampling. GPT::generate turns the last position's logits l [V] into one token:
//   keep the top_k largest of l / temperature (the rest become -inf), p = softmax, draw from p.
// Temperature 0 means argmax, which is what top_k = 1 gives at any temperature.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <vector>

#include "data/data.h"
#include "models/gpt.h"
#include "tensor/threads.h"

using namespace attic;

// l [V] with every entry below the k-th largest set to -inf.
Tensor top_k_filter(const Tensor& l, int64_t k) {
  std::vector<float> sorted = l.to_vector<float>();
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  return masked_fill(l, lt(l, double(sorted[size_t(k - 1)])),
                     -std::numeric_limits<double>::infinity());
}

// One draw from p [V] (summing to 1): the first i whose running sum passes u ~ U[0, 1).
int64_t draw(const std::vector<float>& p, Generator& gen) {
  double u = gen.uniform();
  for (size_t i = 0; i < p.size(); ++i)
    if ((u -= p[i]) < 0) return int64_t(i);
  return int64_t(p.size()) - 1;  // u left over from rounding
}

// Prints label, then each probability in p [V] with three decimals.
void print_probs(const std::string& label, const Tensor& p) {
  std::printf("%-28s", label.c_str());
  for (float x : p.to_vector<float>()) std::printf(" %.3f", x);
  std::printf("\n");
}

// s with each newline written as \n, so a sample prints on one line.
std::string visible(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

int main() {
  std::cout << std::boolalpha;
  // 1. Temperature: logits / temperature, then softmax. Below 1 the largest logit takes
  //    more of the mass; above 1 the distribution flattens toward uniform.
  Tensor l = tensor({2.0, 1.0, 0.5, 0.0, -1.0});
  char label[32];
  for (double temperature : {0.1, 0.5, 1.0, 2.0}) {
    std::snprintf(label, sizeof label, "temperature %.1f:", temperature);
    print_probs(label, softmax(l / temperature, 0));
  }

  // 2. top_k = 2: only the two largest logits can be drawn.
  std::cout << "top_k 2 logits: " << top_k_filter(l, 2) << "\n";
  print_probs("top_k 2:", softmax(top_k_filter(l, 2), 0));

  // 3. Drawing: 10,000 draws at temperature 1 land in proportion to p.
  const std::vector<float> p = softmax(l, 0).to_vector<float>();
  Generator gen(1337);
  Tensor counts = zeros({int64_t(p.size())});
  for (int n = 0; n < 10000; ++n) counts[draw(p, gen)].add_(ones({}));
  print_probs("temperature 1.0:", softmax(l, 0));
  print_probs("frequency in 10,000 draws:", counts / 10000.0);

  // 4. On a GPT (untrained, so the text is noise; what matters is which calls agree).
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
  // 30 new tokens: the context grows past block_size 16 and is cropped to the last 16.
  auto sample = [&](double temperature, int64_t top_k, uint64_t seed) {
    Generator g(seed);
    return tok.decode(model.generate(prompt, 30, temperature, top_k, &g).to_vector<int64_t>());
  };
  const std::string greedy = sample(0.0, 0, 1);
  std::cout << "greedy (temperature 0): " << visible(greedy) << "\n";
  std::cout << "top_k 1 at temperature 0.8 equals greedy: " << (sample(0.8, 1, 2) == greedy)
            << "\n";
  std::cout << "top_k 1 at temperature 5.0 equals greedy: " << (sample(5.0, 1, 3) == greedy)
            << "\n";
  std::cout << "temperature 0.8, seed 1: " << visible(sample(0.8, 0, 1)) << "\n";
  std::cout << "temperature 0.8, seed 1: " << visible(sample(0.8, 0, 1)) << "\n";
  std::cout << "temperature 0.8, seed 2: " << visible(sample(0.8, 0, 2)) << "\n";
  return 0;
}
