// Digit multiplication (data/digit_mul.h), the task of Vadimbuildercxx/reflex_attention:
// the line format with its partial products lowest digit first, every generated line parses
// and multiplies correctly, the vocabulary is exactly 18 symbols, the 5-digit form, the
// parsers refuse what is not the format, the scores by hand, and the generated dataset name.
#include <set>
#include <sstream>

#include "data/digit_mul.h"
#include "data/text_dataset.h"
#include "helpers.h"

using namespace attic;

TEST_CASE("digit_mul: the fork's line, partial products from the lowest digit of b", "[digit_mul]") {
  CHECK(digit_mul_line(99288, 37728) == "99288*37728 = [794304, 198576, 695016, 695016, 297864] => 3745937664");
  CHECK(digit_mul_line(6420, 8082) == "6420*8082 = [12840, 51360, 0, 51360] => 51886440");
  CHECK(digit_mul_line(7, 3) == "7*3 = [21] => 21");
}

TEST_CASE("digit_mul: every generated line parses and multiplies correctly, in 18 symbols", "[digit_mul]") {
  const int64_t digits = GENERATE(4, 5);
  INFO(digits << " digits");
  const std::string text = digit_mul_text(digits, 3000, 42);
  std::istringstream in(text);
  int64_t lines = 0;
  for (std::string line; std::getline(in, line); ++lines) {
    INFO(line);
    const auto l = parse_digit_mul_line(line);
    REQUIRE(l.has_value());
    CHECK(l->correct());
    CHECK(std::to_string(l->a).size() == size_t(digits));
    CHECK(std::to_string(l->b).size() == size_t(digits));
    CHECK(l->partials.size() == size_t(digits));
  }
  CHECK(lines == 3000);
  CHECK(text.back() == '\n');
  const std::set<char> symbols(text.begin(), text.end());
  CHECK(std::string(symbols.begin(), symbols.end()) == "\n *,0123456789=>[]");
  CHECK(symbols.size() == 18);
  CHECK(digit_mul_digits(text) == digits);
  // The same seed gives the same text; another seed another.
  CHECK(digit_mul_text(digits, 3000, 42) == text);
  CHECK(digit_mul_text(digits, 3000, 43) != text);
}

TEST_CASE("digit_mul: a wrong line is caught by correct(), a malformed one by the parser", "[digit_mul]") {
  auto l = parse_digit_mul_line("12*34 = [48, 36] => 408");
  REQUIRE(l.has_value());
  CHECK(l->correct());
  CHECK_FALSE(parse_digit_mul_line("12*34 = [48, 36] => 409")->correct());
  CHECK_FALSE(parse_digit_mul_line("12*34 = [36, 48] => 408")->correct());  // highest digit first
  CHECK_FALSE(parse_digit_mul_line("12*34 = [48] => 408")->correct());      // a partial missing
  for (const char* bad : {"", "12*34 = [48, 36] =>", "12*34 = [48,36] => 408", "12*34 = [48, 36] => 408 ",
                          "12 * 34 = [48, 36] => 408", "12*34 = 48, 36 => 408", "12*34 = [] => 0",
                          "12*34 = [48, 36] => 4x8", "12*34 = [48, 36] => 1234567890123456789"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_digit_mul_line(bad).has_value());
  }
  CHECK(parse_digit_mul_answer("[48, 36] => 408") == std::optional<int64_t>(408));
  CHECK(parse_digit_mul_answer("[48, 3] => 1") == std::optional<int64_t>(1));  // parses; scoring judges
  CHECK_FALSE(parse_digit_mul_answer("[48, 36] => ").has_value());
  CHECK_FALSE(parse_digit_mul_answer("48 => 408").has_value());
  CHECK(digit_mul_digits("To be, or not to be") == 0);
}

TEST_CASE("digit_mul: R², MAE and MAPE worked out by hand", "[digit_mul]") {
  // truth 100, 200, 300, 400; predictions 100, 250, none, 380.
  // parsed: 3; mean y = 200 + 0 ... over the parsed: (100 + 200 + 400)/3 = 233.33
  // residuals 0, −50, 20: SS_res = 2900; SS_tot = 133.33² + 33.33² + 166.67² = 46666.67
  const ProductScore s = score_products({100, 200, 300, 400}, {100, 250, std::nullopt, 380});
  CHECK(s.n == 4);
  CHECK(s.parsed == 3);
  CHECK(s.exact == 1);
  CHECK(s.r2 == Approx(1 - 2900.0 / 46666.666666666667).epsilon(1e-12));
  CHECK(s.mae == Approx(70.0 / 3).epsilon(1e-12));
  CHECK(s.mape == Approx((0 + 0.25 + 0.05) / 3).epsilon(1e-12));
  const ProductScore none = score_products({5}, {std::nullopt});
  CHECK(none.parsed == 0);
  CHECK(none.exact == 0);
  CHECK(testing::error_message([] { score_products({1, 2}, {std::nullopt}); }) ==
        "score_products: 2 true products and 1 predictions");
}

TEST_CASE("digit_mul: bad sizes are errors", "[digit_mul]") {
  CHECK(testing::error_message([] { digit_mul_text(10, 5); }) ==
        "digit_mul: digits must be in 1..9 (a·b must fit in 63 bits), got 10");
  CHECK(testing::error_message([] { digit_mul_text(4, 0); }) == "digit_mul: lines must be at least 1, got 0");
}

TEST_CASE("the dataset name digit_mul:4 is the fork's 500,000 lines, split 90/10 by characters",
          "[digit_mul]") {
  const TextDataset d = TextDataset::from_name("digit_mul:4");
  const std::string text = digit_mul_text(4, 500000, 0);
  CHECK(d.tokens().numel() == int64_t(text.size()));
  CHECK(d.vocab_size() == 18);
  CHECK(d.size(Split::Train) == train_split_size(int64_t(text.size())));
  CHECK(d.tokenizer().decode(d.tokens().narrow(0, 0, 200).to_vector<int64_t>()) == text.substr(0, 200));
  CHECK_FALSE(parse_generated_dataset("digit_mul:6").has_value());
  CHECK(parse_generated_dataset("digit_mul:5")->digits == 5);
}
