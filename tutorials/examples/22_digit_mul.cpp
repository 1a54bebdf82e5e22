// The digit-multiplication task: lines, their 18 symbols, parsing, and how sampled answers
// are scored.
#include <cstdio>
#include <set>
#include <sstream>

#include "data/digit_mul.h"

using namespace attic;

int main() {
  std::printf("%s\n", digit_mul_line(99288, 37728).c_str());
  const std::string text = digit_mul_text(4, 5, 0);
  std::printf("%s", text.c_str());
  const std::string big = digit_mul_text(4, 10000, 0);
  const std::set<char> symbols(big.begin(), big.end());
  std::printf("%zu symbols:", symbols.size());
  for (char c : symbols) std::printf(" %s", c == '\n' ? "\\n" : c == ' ' ? "' '" : std::string(1, c).c_str());
  std::printf("\n");
  std::istringstream lines(big);
  int ok = 0, n = 0;
  for (std::string line; std::getline(lines, line); ++n) ok += parse_digit_mul_line(line)->correct();
  std::printf("%d of %d lines parse and multiply correctly\n", ok, n);

  // Three answers a model might write after "1234*5678 = ", one of them cut short.
  const int64_t truth = 1234 * 5678;
  std::vector<std::optional<int64_t>> predicted;
  for (const char* answer : {"[9872, 8638, 7404, 6170] => 7006652", "[9872, 8638, 7404, 6170] => 7016652",
                             "[9872, 8638, 74"}) {
    predicted.push_back(parse_digit_mul_answer(answer));
    std::printf("%-40s -> %s\n", answer,
                predicted.back() ? std::to_string(*predicted.back()).c_str() : "unparsable");
  }
  const ProductScore s = score_products({truth, truth, truth}, predicted);
  std::printf("exact %lld/%lld, parsed %lld, MAE %.0f, MAPE %.5f\n", (long long)s.exact, (long long)s.n,
              (long long)s.parsed, s.mae, s.mape);
  return 0;
}
