#include "data/digit_mul.h"

#include <cctype>
#include <cmath>

#include "tensor/error.h"
#include "tensor/random.h"

namespace attic {

std::string digit_mul_line(int64_t a, int64_t b) {
  std::string out = std::to_string(a) + "*" + std::to_string(b) + " = [";
  int64_t rest = b;
  do {  // the digits of b from the lowest: d0 = b mod 10, d1 = (b / 10) mod 10, ...
    out += std::to_string(a * (rest % 10));
    rest /= 10;
    if (rest > 0) out += ", ";
  } while (rest > 0);
  return out + "] => " + std::to_string(a * b);
}

int64_t digit_mul_low(int64_t digits) {
  int64_t low = 1;
  for (int64_t i = 1; i < digits; ++i) low *= 10;
  return low;
}

std::string digit_mul_text(int64_t digits, int64_t lines, uint64_t seed) {
  ATTIC_CHECK(digits >= 1 && digits <= 9, "digit_mul: digits must be in 1..9 (a·b must fit in ",
              "63 bits), got ", digits);
  ATTIC_CHECK(lines >= 1, "digit_mul: lines must be at least 1, got ", lines);
  const int64_t low = digit_mul_low(digits), high = low * 10;
  Generator gen(seed);
  std::string text;
  text.reserve(size_t(lines) * size_t(6 * digits + 12));
  for (int64_t i = 0; i < lines; ++i) {
    const int64_t a = gen.randint(low, high);
    const int64_t b = gen.randint(low, high);
    text += digit_mul_line(a, b);
    text += '\n';
  }
  return text;
}

bool DigitMulLine::correct() const {
  int64_t rest = b;
  size_t j = 0;
  do {
    if (j >= partials.size() || partials[j] != a * (rest % 10)) return false;
    rest /= 10;
    ++j;
  } while (rest > 0);
  return j == partials.size() && product == a * b;
}

namespace {

// A small cursor over a line: each read either consumes what it expects or fails.
struct Reader {
  const std::string& s;
  size_t i = 0;
  bool literal(const char* text) {
    const size_t n = std::char_traits<char>::length(text);
    if (s.compare(i, n, text) != 0) return false;
    i += n;
    return true;
  }
  // A plain non-negative integer of 1 to 18 digits (so it cannot overflow).
  std::optional<int64_t> number() {
    const size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 19) ++i;
    if (i == start || i - start > 18) return std::nullopt;
    return std::stoll(s.substr(start, i - start));
  }
  bool at_end() const { return i == s.size(); }
};

// "[p, p, ...] => c" from r's position: fills partials and product.
bool read_answer(Reader& r, std::vector<int64_t>& partials, int64_t& product) {
  if (!r.literal("[")) return false;
  do {
    auto p = r.number();
    if (!p) return false;
    partials.push_back(*p);
  } while (r.literal(", "));
  if (!r.literal("] => ")) return false;
  auto c = r.number();
  if (!c || !r.at_end()) return false;
  product = *c;
  return true;
}

}  // namespace

std::optional<DigitMulLine> parse_digit_mul_line(const std::string& line) {
  Reader r{line};
  DigitMulLine out;
  auto a = r.number();
  if (!a || !r.literal("*")) return std::nullopt;
  auto b = r.number();
  if (!b || !r.literal(" = ")) return std::nullopt;
  out.a = *a;
  out.b = *b;
  if (!read_answer(r, out.partials, out.product)) return std::nullopt;
  return out;
}

std::optional<int64_t> parse_digit_mul_answer(const std::string& answer) {
  Reader r{answer};
  std::vector<int64_t> partials;
  int64_t product = 0;
  if (!read_answer(r, partials, product)) return std::nullopt;
  return product;
}

ProductScore score_products(const std::vector<int64_t>& truth,
                            const std::vector<std::optional<int64_t>>& predicted) {
  ATTIC_CHECK(!truth.empty() && truth.size() == predicted.size(), "score_products: ",
              truth.size(), " true products and ", predicted.size(), " predictions");
  ProductScore s;
  s.n = int64_t(truth.size());
  double mean = 0;
  for (size_t i = 0; i < truth.size(); ++i)
    if (predicted[i]) mean += double(truth[i]), ++s.parsed;
  if (s.parsed == 0) return s;
  mean /= double(s.parsed);
  double ss_res = 0, ss_tot = 0;
  for (size_t i = 0; i < truth.size(); ++i) {
    if (!predicted[i]) continue;
    const double y = double(truth[i]), err = y - double(*predicted[i]);
    s.exact += *predicted[i] == truth[i];
    ss_res += err * err;
    ss_tot += (y - mean) * (y - mean);
    s.mae += std::abs(err);
    s.mape += std::abs(err) / y;
  }
  s.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : (ss_res == 0 ? 1.0 : 0.0);
  s.mae /= double(s.parsed);
  s.mape /= double(s.parsed);
  return s;
}

int64_t digit_mul_digits(const std::string& text) {
  const auto line = parse_digit_mul_line(text.substr(0, text.find('\n')));
  return line ? int64_t(std::to_string(line->a).size()) : 0;
}

std::optional<GeneratedDataset> parse_generated_dataset(const std::string& name) {
  if (name == "digit_mul:4") return GeneratedDataset{.digits = 4};
  if (name == "digit_mul:5") return GeneratedDataset{.digits = 5};
  return std::nullopt;
}

}  // namespace attic
