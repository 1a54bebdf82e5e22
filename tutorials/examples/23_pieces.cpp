// Chapter 23: GPT-2's pre-tokenization. Before any merge, the text is cut into pieces by the
// pattern of OpenAI's gpt-2 (src/encoder.py), and merges happen only inside a piece:
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "data/gpt2_pretokenize.h"
#include "data/text_dataset.h"
#include "util/files.h"

using namespace attic;

// A piece between quotes, with a newline written \n and a tab \t.
std::string shown(std::string_view s) {
  std::string out = "\"";
  for (char c : s) out += c == '\n' ? std::string("\\n") : c == '\t' ? std::string("\\t") : std::string(1, c);
  return out + "\"";
}

// The five most frequent pairs of neighbouring bytes in the given pieces (ties: the pair
// seen first), each with its count.
void top_pairs(const char* label, const std::vector<std::string_view>& pieces) {
  std::map<std::pair<char, char>, int64_t> count;
  std::vector<std::pair<char, char>> order;
  for (std::string_view p : pieces)
    for (size_t i = 0; i + 1 < p.size(); ++i)
      if (count[{p[i], p[i + 1]}]++ == 0) order.push_back({p[i], p[i + 1]});
  std::printf("%s", label);
  for (int k = 0; k < 5; ++k) {
    std::pair<char, char> best = order[0];
    for (const auto& pair : order)
      if (count[pair] > count[best]) best = pair;
    std::printf(" %s %lld", shown(std::string{best.first, best.second}).c_str(), (long long)count[best]);
    count[best] = -1;  // taken
  }
  std::printf("\n");
}

int main() {
  const std::string text = "Hello world's  end\nI'm   here: 3,141 dogs!!! DON'T\t\tstop, dog.  ";
  std::printf("%s\n", shown(text).c_str());
  std::string line;
  for (std::string_view piece : gpt2_pieces(text)) line.append(" ").append(shown(piece));
  std::printf("pieces:%s\n", line.c_str());

  // Merges count pairs inside pieces. Counted across the whole text instead, the top pairs
  // include "e " and "s ", a word's end glued to the space after it.
  const std::string corpus = util::read_text_file(default_dataset_path(), "the corpus").substr(0, 100000);
  top_pairs("whole text: ", {std::string_view(corpus)});
  top_pairs("in pieces:  ", gpt2_pieces(corpus));
  return 0;
}
