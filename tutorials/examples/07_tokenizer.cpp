// Chapter 7: characters become ids. The vocabulary is the text's distinct characters,
// sorted; a character's id is its place in that order.
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>

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

int main() {
  // default_dataset_path() finds data/shakespeare_char/input.txt from any folder.
  std::ifstream in(default_dataset_path(), std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::cout << text.size() << " characters. The first 60:\n" << text.substr(0, 60) << "\n";

  // Sorted distinct characters: '\n' (byte 10) first, then ' ' (32), punctuation, digits,
  // capitals (65..90) and small letters (97..122).
  CharTokenizer tok = CharTokenizer::from_text(text);
  std::cout << "vocab size " << tok.vocab_size() << "\n";
  for (int64_t id = 0; id < tok.vocab_size(); ++id)
    std::cout << id << ":" << char_literal(tok.vocabulary()[size_t(id)])
              << (id % 13 == 12 || id == tok.vocab_size() - 1 ? "\n" : " ");

  // encode maps each character to its id; decode maps ids back.
  const std::vector<int64_t> ids = tok.encode("First Citizen:\n");
  std::cout << "encode(\"First Citizen:\\n\") =";
  for (int64_t id : ids) std::cout << " " << id;
  std::cout << "\ndecode gives back \"" << tok.decode({18, 47, 56, 57, 58}) << "\"\n";

  // The vocabulary string is all a checkpoint needs to rebuild the same ids.
  CharTokenizer loaded = CharTokenizer::from_vocabulary(tok.vocabulary());
  std::cout << std::boolalpha << "same ids after reloading: "
            << (loaded.encode("O Romeo") == tok.encode("O Romeo")) << "\n";

  // A character the text never uses has no id, and an id past the vocabulary no character.
  try_it("encode(\"#1\")", [&] { tok.encode("#1"); });
  try_it("encode(\"Zoë\")", [&] { tok.encode("Zoë"); });
  try_it("decode({65})", [&] { tok.decode({65}); });
  return 0;
}
