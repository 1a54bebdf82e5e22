// Chapter 7: the train/val split. The first 90% of the text is train, the last 10% val.
#include <iostream>

#include "data/data.h"

using namespace attic;

// The characters of a 1-D int64 tensor of ids.
std::string text_of(const CharTokenizer& tok, const Tensor& ids) {
  return tok.decode(ids.to_vector<int64_t>());
}

int main() {
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  const Tensor& tokens = ds.tokens();
  const int64_t n = tokens.numel();
  std::cout << "tokens: shape " << str(tokens.shape()) << ", dtype " << dtype_name(tokens.dtype())
            << "\n";

  // n_train = int(n * 0.9), as nanoGPT's prepare.py computes it: 1003854.6 -> 1003854.
  std::cout << "train_split_size(" << n << ") = " << train_split_size(n) << "\n";
  std::cout << "train " << ds.size(Split::Train) << " tokens, val " << ds.size(Split::Val)
            << " tokens\n";

  // Both splits are views of tokens: val starts where train ends.
  const Tensor& train = ds.data(Split::Train);
  const Tensor& val = ds.data(Split::Val);
  std::cout << "val starts at offset " << val.storage_offset() << " of the same storage\n";

  // The cut falls in the middle of a line: the end of train | the start of val.
  const int64_t nt = train.numel();
  std::cout << "---\n" << text_of(ds.tokenizer(), train.narrow(0, nt - 60, 60)) << "|"
            << text_of(ds.tokenizer(), val.narrow(0, 0, 40)) << "\n---\n";

  // int() of a double product, exactly like Python: 100 * 0.29 is 28.999999999999996.
  std::cout << "train_split_size(100, 0.29) = " << train_split_size(100, 0.29) << "\n";
  return 0;
}
