// Chapter 7: a batch is B windows of T tokens at random offsets; the targets y are the
// inputs x moved one token to the right.
#include <iostream>

#include "data/data.h"
#include "ops/ops.h"

using namespace attic;

// s with each newline written as \n, so a window prints on one line.
std::string visible(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

int main() {
  std::cout << std::boolalpha;
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  const CharTokenizer& tok = ds.tokenizer();
  const int64_t B = 4, T = 8;
  Generator gen(1337);
  Batch batch = ds.get_batch(Split::Train, B, T, gen);
  std::cout << "x " << str(batch.x.shape()) << "\n" << batch.x << "\n";
  std::cout << "y " << str(batch.y.shape()) << "\n" << batch.y << "\n";

  // Decoded, each row of y is its row of x one character later.
  for (int64_t b = 0; b < B; ++b)
    std::cout << "x[" << b << "] \"" << visible(tok.decode(batch.x[b].to_vector<int64_t>()))
              << "\"  y[" << b << "] \"" << visible(tok.decode(batch.y[b].to_vector<int64_t>()))
              << "\"\n";

  // One row holds T examples: from the first t + 1 characters, predict y[0, t].
  const std::string x0 = tok.decode(batch.x[0].to_vector<int64_t>());
  const std::string y0 = tok.decode(batch.y[0].to_vector<int64_t>());
  for (int64_t t = 0; t < T; ++t)
    std::cout << "  \"" << visible(x0.substr(0, size_t(t) + 1)) << "\" -> "
              << char_literal(y0[size_t(t)]) << "\n";

  // The offsets are gen.randint(0, len - T), drawn one per row: replaying the same draws
  // finds them, and x[b] is tokens[i : i + T].
  Generator replay(1337);
  const int64_t len = ds.size(Split::Train);
  for (int64_t b = 0; b < B; ++b) {
    const int64_t i = replay.randint(0, len - T);
    const bool same = ds.tokens().narrow(0, i, T).to_vector<int64_t>() ==
                      batch.x[b].to_vector<int64_t>();
    std::cout << "row " << b << ": offset " << i << ", x equals tokens[i : i + T]: " << same
              << "\n";
  }

  // A model that knows nothing gives every character the same logit. Its loss on the batch
  // is ln 65 = 4.1744, where training starts.
  Tensor logits = zeros({B * T, ds.vocab_size()});
  std::cout << "loss of equal logits: " << cross_entropy(logits, batch.y.view({B * T}))
            << "\n";
  return 0;
}
