// Digit multiplication, the char-level task of Vadimbuildercxx/reflex_attention
// (data/digit_mul/prepare_char.py). One line per problem:
//
//   a*b = [a·d0, a·d1, ...] => a·b
//   99288*37728 = [794304, 198576, 695016, 695016, 297864] => 3745937664
//
// d0 is the least significant digit of b, so the partial products come lowest digit first,
// printed as plain integers joined by ", ". a and b are uniform over the numbers of exactly
// `digits` digits. The vocabulary is the 18 chars "\n", " ", "*", ",", "0"-"9", "=", ">",
// "[", "]".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attic {

// One problem's line, without its newline.
std::string digit_mul_line(int64_t a, int64_t b);

// 10^(digits − 1): operands of `digits` digits are drawn from [low, 10·low).
int64_t digit_mul_low(int64_t digits);

// `lines` problems, each line followed by "\n", with a and b drawn from a Generator seeded
// seed: a = randint(10^(digits−1), 10^digits), then b, line after line. digits in 1 .. 9
// (so a·b fits in 63 bits); throws attic::Error otherwise, or for lines < 1.
std::string digit_mul_text(int64_t digits, int64_t lines, uint64_t seed = 0);

struct DigitMulLine {
  int64_t a = 0, b = 0;
  std::vector<int64_t> partials;  // as written, lowest digit of b first
  int64_t product = 0;            // as written
  // Every number as the task defines it: partials[j] = a · (j-th digit of b from the right),
  // one per digit of b, and product = a·b.
  bool correct() const;
};

// A line without its newline -> its numbers, or nullopt when it is not of the form
// "a*b = [p, ...] => c" exactly (plain non-negative integers, single spaces).
std::optional<DigitMulLine> parse_digit_mul_line(const std::string& line);

// What a model wrote after the prompt "a*b = ", up to (not including) the newline -> the
// product after "=> ", or nullopt when the text is not "[p, ...] => c".
std::optional<int64_t> parse_digit_mul_answer(const std::string& answer);

// How close predicted products come to the true ones, as the fork's README reports them.
// Unparsable answers are counted and left out of the other figures.
struct ProductScore {
  int64_t n = 0;          // problems
  int64_t parsed = 0;     // answers that parse (parse_digit_mul_answer)
  int64_t exact = 0;      // parsed answers equal to a·b
  double r2 = 0;          // 1 − Σ(y − ŷ)² / Σ(y − ȳ)² over the parsed answers
  double mae = 0;         // mean |y − ŷ|
  double mape = 0;        // mean |y − ŷ| / y
};
// truth[i] = a_i·b_i (> 0); predicted[i] = the parsed product or nullopt. Throws for
// mismatched sizes or an empty list.
ProductScore score_products(const std::vector<int64_t>& truth,
                            const std::vector<std::optional<int64_t>>& predicted);

// The number of decimal digits of the a in a dataset's first line ("1234*5678 = ..." -> 4),
// or 0 when the first line is not a digit_mul line.
int64_t digit_mul_digits(const std::string& text);

// A dataset key may name a generated task instead of a file (TextDataset::from_name):
// "digit_mul:4" is digit_mul_text(4, 500000, 0), the size of the fork's char-level set;
// "digit_mul:5" the 5-digit form. nullopt for anything else (a path).
struct GeneratedDataset {
  int64_t digits = 4, lines = 500000;
  uint64_t seed = 0;
};
std::optional<GeneratedDataset> parse_generated_dataset(const std::string& name);

}  // namespace attic
