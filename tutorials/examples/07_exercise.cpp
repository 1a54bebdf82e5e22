// Chapter 7 exercise, solved: the val loss of a model that ignores the context and always
// predicts each character with its frequency in train (a unigram model).
//   counts[c] = #{t : train[t] = c},  p = counts / sum(counts)       [V]
//   loss = -(1/N) sum_t log p[val[t]]                                  val [N] -> []
#include <cmath>
#include <iostream>

#include "data/data.h"
#include "ops/ops.h"

using namespace attic;

int main() {
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  const CharTokenizer& tok = ds.tokenizer();
  const int64_t V = ds.vocab_size();
  const Tensor& train = ds.data(Split::Train);
  const Tensor& val = ds.data(Split::Val);

  // 1. index_add adds src[t] = 1 into counts[train[t]]: one count per occurrence.
  Tensor counts = index_add(zeros({V}, kFloat64), 0, train, ones({train.numel()}, kFloat64));
  const int64_t top = argmax(counts, 0).item<int64_t>();
  std::cout << "most common in train: " << char_literal(tok.vocabulary()[size_t(top)]) << ", "
            << counts[top].item<int64_t>() << " times\n";

  // 2. Every character occurs in train (no count is 0), so every log p is finite.
  Tensor p = counts / sum(counts);
  std::cout << "smallest count " << min(counts).item<int64_t>() << "\n";
  Tensor loss = -mean(log(index_select(p, 0, val)));
  std::cout << "unigram val loss " << loss << "\n";

  // 3. Guessing uniformly costs ln V on every character.
  std::cout << "uniform loss ln " << V << " = " << std::log(double(V)) << "\n";

  // 4. Characters with no occurrence in val.
  Tensor val_counts = index_add(zeros({V}, kFloat64), 0, val, ones({val.numel()}, kFloat64));
  std::cout << "never in val:";
  for (int64_t c = 0; c < V; ++c)
    if (val_counts[c].item<double>() == 0)
      std::cout << " " << char_literal(tok.vocabulary()[size_t(c)]);
  std::cout << "\n";
  return 0;
}
