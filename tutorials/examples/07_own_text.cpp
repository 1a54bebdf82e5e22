// Chapter 7: any text file is a dataset. The CLI's --dataset=PATH loads it this way.
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>

#include "data/data.h"

using namespace attic;

// Runs f and prints the message of the attic::Error it throws.
void try_it(const char* what, const std::function<void()>& f) {
  try {
    f();
    std::cout << what << ": no error\n";
  } catch (const Error& e) {
    std::cout << what << ":\n  " << e.what() << "\n";
  }
}

// The characters of s as literals, separated by spaces: 'a' 'b' '\n'.
std::string literals(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (!out.empty()) out += ' ';
    out += char_literal(c);
  }
  return out;
}

int main() {
  // Edward Lear, 1871: four lines, 145 characters.
  const std::string poem =
      "The Owl and the Pussy-cat went to sea\n"
      "In a beautiful pea-green boat,\n"
      "They took some honey, and plenty of money,\n"
      "Wrapped up in a five-pound note.\n";
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "attic_07_owl.txt";
  std::ofstream(path, std::ios::binary) << poem;

  TextDataset ds = TextDataset::from_file(path.string());
  std::filesystem::remove(path);
  std::cout << ds.tokens().numel() << " tokens, vocab size " << ds.vocab_size() << ":\n  "
            << literals(ds.tokenizer().vocabulary()) << "\n";
  std::cout << "train " << ds.size(Split::Train) << ", val " << ds.size(Split::Val) << "\n";

  // Val is 10% of the text, so a small text has a short val split, and T must be shorter.
  Generator gen(0);
  try_it("get_batch(Split::Val, 4, 32, gen)", [&] { ds.get_batch(Split::Val, 4, 32, gen); });
  Batch batch = ds.get_batch(Split::Val, 2, 8, gen);
  std::cout << "a val batch with T = 8:\n";
  for (int64_t b = 0; b < 2; ++b)
    std::cout << "  \"" << ds.tokenizer().decode(batch.x[b].to_vector<int64_t>()) << "\"\n";

  // Tokens are bytes: "é" is two bytes in UTF-8, so two tokens, and decode puts it back.
  CharTokenizer tok = CharTokenizer::from_text("café");
  std::cout << "\"café\" is " << tok.encode("café").size() << " tokens; vocabulary "
            << literals(tok.vocabulary()) << "; decoded: " << tok.decode(tok.encode("café"))
            << "\n";

  try_it("from_file(\"no/such/file.txt\")", [] { TextDataset::from_file("no/such/file.txt"); });
  return 0;
}
