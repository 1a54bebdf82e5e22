// Chapter 7's exercise, solved.
#include "unigram.h"

#include "ops/ops.h"

using namespace attic;

// index_add adds src[t] = 1 into counts[ids[t]]: one count per occurrence.
Tensor char_counts(const Tensor& ids, int64_t V) {
  return index_add(zeros({V}, kFloat64), 0, ids, ones({ids.numel()}, kFloat64));
}

// Every character of the vocabulary occurs in train at least once here, so no p is 0 and
// every ln p is finite.
double unigram_val_loss(const TextDataset& ds) {
  const Tensor counts = char_counts(ds.data(Split::Train), ds.vocab_size());
  const Tensor p = counts / sum(counts);
  return -mean(log(index_select(p, 0, ds.data(Split::Val)))).item<double>();
}

std::string missing_chars(const TextDataset& ds, Split split) {
  const std::vector<double> counts =
      char_counts(ds.data(split), ds.vocab_size()).to_vector<double>();
  std::string out;
  for (size_t c = 0; c < counts.size(); ++c)
    if (counts[c] == 0) out += ds.tokenizer().vocabulary()[c];
  return out;
}
