// Chapter 7: where a batch comes from. get_batch draws B = 3 offsets i in the train split of
// a one-line text and cuts two windows of T = 8 characters at each: x = data[i : i + T], the
// inputs, and y = data[i + 1 : i + T + 1], the targets, the same window one character
// later. Draws 07_batch_windows.svg: the text as a strip of cells, the windows under it.
#include <iostream>

#include "data/data.h"
#include "viz/diagram.h"
#include "viz/svg.h"

using namespace attic;

const int kLeft = 40, kCell = 12;  // the strip's left edge, and the width of a character

// s with each newline written as \n, so a window prints on one line.
std::string visible(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '\n' ? std::string("\\n") : std::string(1, c);
  return out;
}

// The characters of s as cells of column first, first + 1, ... at height y, in fill; a
// space is drawn as a middle dot and a newline as a return arrow.
void cells(viz::Diagram& d, const std::string& s, int64_t first, int y, const char* fill) {
  for (size_t k = 0; k < s.size(); ++k) {
    const std::string c = s[k] == ' ' ? "·" : s[k] == '\n' ? "↵" : s.substr(k, 1);
    d.cell(kLeft + int(first + int64_t(k)) * kCell, y, kCell, 20, fill, c, 11);
  }
}

int main() {
  std::cout << std::boolalpha;
  const std::string text = "First Citizen:\nBefore we proceed any further, hear me speak.\n";
  TextDataset ds = TextDataset::from_text(text);
  const CharTokenizer& tok = ds.tokenizer();
  const int64_t B = 3, T = 8, n_train = ds.size(Split::Train);
  Generator gen(7);
  Batch batch = ds.get_batch(Split::Train, B, T, gen);
  std::cout << text.size() << " characters, train " << n_train << "; x and y "
            << str(batch.x.shape()) << "\n";

  viz::Diagram d(790, 306);
  d.text(395, 22, "a batch: B = 3 windows of T = 8 characters, y one character after x", 14);
  for (int64_t k = 0; k < int64_t(text.size()); k += 10)  // the strip, with every tenth offset
    d.text(kLeft + int(k) * kCell + kCell / 2, 50, std::to_string(k), 10, "#555");
  cells(d, text.substr(0, size_t(n_train)), 0, 56, "#bbbbbb");
  cells(d, text.substr(size_t(n_train)), n_train, 56, "#ffffff");
  d.text(kLeft, 90, "train: the first " + std::to_string(n_train) + " characters", 10, "#555",
         "start");
  d.text(kLeft + int(text.size()) * kCell, 90, "val: never in a train batch", 10, "#555", "end");
  // The offsets are gen.randint(0, n_train - T), one per row: replaying the draws finds them.
  Generator replay(7);
  for (int64_t b = 0; b < B; ++b) {
    const int64_t i = replay.randint(0, n_train - T);
    const std::string x = tok.decode(batch.x[b].to_vector<int64_t>());
    const std::string y = tok.decode(batch.y[b].to_vector<int64_t>());
    std::cout << "row " << b << ": i = " << i << ", x \"" << visible(x) << "\" = text[i : i + T]: "
              << (x == text.substr(size_t(i), size_t(T))) << ", y \"" << visible(y)
              << "\" = text[i + 1 : i + T + 1]: " << (y == text.substr(size_t(i) + 1, size_t(T)))
              << "\n";
    const int top = 120 + int(b) * 62;
    d.text(kLeft + int(i) * kCell, top - 5, "row " + std::to_string(b) + ": i = " +
                                                std::to_string(i), 11, "", "start");
    d.text(kLeft - 6, top + 14, "x[" + std::to_string(b) + "]", 11, "", "end");
    d.text(kLeft - 6, top + 34, "y[" + std::to_string(b) + "]", 11, "", "end");
    cells(d, x, i, top, viz::series_color(0));
    cells(d, y, i + 1, top + 20, viz::series_color(3));
  }
  d.text(kLeft, 298, "x: the inputs; y: the targets, y[b, t] = x[b, t + 1]; · a space, ↵ a newline",
         11, "", "start");
  d.write("07_batch_windows.svg");
  std::cout << "wrote 07_batch_windows.svg\n";
  return 0;
}
