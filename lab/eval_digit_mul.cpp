#include "lab/eval_digit_mul.h"

#include <cstdio>
#include <iostream>
#include <unordered_set>

#include "tensor/error.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

// The (a, b) of every complete line in the train split, as a·10⁹ + b (a, b < 10⁹).
std::unordered_set<int64_t> train_problems(const TextDataset& data) {
  const Tensor& ids = data.data(Split::Train);
  const std::string& vocab = data.tokenizer().vocabulary();
  std::unordered_set<int64_t> seen;
  std::string line;
  const int64_t* p = ids.data_ptr<int64_t>();
  for (int64_t i = 0; i < ids.numel(); ++i) {
    const char c = vocab[size_t(p[i])];
    if (c != '\n') {
      line += c;
      continue;
    }
    if (auto l = parse_digit_mul_line(line)) seen.insert(l->a * 1000000000 + l->b);
    line.clear();
  }
  return seen;
}

}  // namespace

int64_t dataset_digits(const TextDataset& data) {
  const std::string& vocab = data.tokenizer().vocabulary();
  const int64_t n = std::min<int64_t>(data.tokens().numel(), 200);
  std::string text;
  for (int64_t i = 0; i < n; ++i) text += vocab[size_t(data.tokens().data_ptr<int64_t>()[i])];
  return digit_mul_digits(text);
}

ProductScore eval_digit_mul(Restored& r, const TextDataset& data, const DigitMulEval& o) {
  ATTIC_CHECK(o.n >= 1, "eval --task=digit_mul: n must be at least 1, got ", o.n);
  ATTIC_CHECK(o.temperature >= 0 && o.top_k >= 0 && o.show >= 0,
              "eval --task=digit_mul: temperature, top_k and show must be >= 0");
  const std::string& vocab = data.tokenizer().vocabulary();
  const int64_t digits = dataset_digits(data);
  ATTIC_CHECK(digits > 0, "eval --task=digit_mul: the dataset ", r.config.dataset_path(),
              " does not start with a digit_mul line ('a*b = [...] => c')");
  const std::unordered_set<int64_t> seen = train_problems(data);

  const int64_t low = digit_mul_low(digits);
  Generator gen{uint64_t(o.seed)};
  std::vector<int64_t> a(size_t(o.n)), b(size_t(o.n)), truth(size_t(o.n));
  for (int64_t i = 0, tries = 0; i < o.n; ++tries) {
    ATTIC_CHECK(tries < 1000 * o.n, "eval --task=digit_mul: cannot find ", o.n,
                " problems outside the train split");
    const int64_t x = gen.randint(low, low * 10), y = gen.randint(low, low * 10);
    if (seen.count(x * 1000000000 + y)) continue;
    a[size_t(i)] = x, b[size_t(i)] = y, truth[size_t(i)] = x * y;
    ++i;
  }

  // Every line of the data follows a newline, so the prompt starts with one: the problem
  // comes where the model has always seen problems begin. All prompts have the same length,
  // so the n answers are sampled as one batch.
  std::vector<int64_t> prompt_ids;
  int64_t prompt_len = 0;
  for (int64_t i = 0; i < o.n; ++i) {
    char prompt[64];
    std::snprintf(prompt, sizeof prompt, "\n%lld*%lld = ", (long long)a[size_t(i)], (long long)b[size_t(i)]);
    const std::vector<int64_t> ids = r.tokenizer->encode(prompt);
    prompt_len = int64_t(ids.size());
    prompt_ids.insert(prompt_ids.end(), ids.begin(), ids.end());
  }
  // The longest answer: d partials of up to d + 1 digits, ", " between them, "[", "] => ",
  // a product of up to 2d digits; then the newline.
  const int64_t max_answer = digits * (digits + 1) + 2 * (digits - 1) + 6 + 2 * digits + 1;
  const Tensor sampled = r.model->generate(from_vector(prompt_ids, {o.n, prompt_len}), max_answer,
                                          o.temperature, o.top_k, &gen, true);
  const std::vector<int64_t> flat = sampled.to_vector<int64_t>();
  std::vector<std::optional<int64_t>> predicted(size_t(o.n));
  std::vector<std::string> answers(size_t(o.n));
  const int64_t width = sampled.size(1);
  for (int64_t i = 0; i < o.n; ++i) {
    const int64_t* row = flat.data() + i * width;
    std::string& ans = answers[size_t(i)];
    for (int64_t j = prompt_len; j < width && vocab[size_t(row[j])] != '\n'; ++j)
      ans += vocab[size_t(row[j])];
    predicted[size_t(i)] = parse_digit_mul_answer(ans);
  }
  const ProductScore s = score_products(truth, predicted);

  std::printf("digit_mul: %lld held-out %lld-digit problems (seed %lld), sampled at temperature %g",
              (long long)o.n, (long long)digits, (long long)o.seed, o.temperature);
  if (o.top_k > 0) std::printf(", top_k %lld", (long long)o.top_k);
  std::printf("\n");
  for (int64_t i = 0; i < std::min(o.show, o.n); ++i)
    std::printf("  %lld*%lld = %s   (true %lld)\n", (long long)a[size_t(i)], (long long)b[size_t(i)],
                answers[size_t(i)].c_str(), (long long)truth[size_t(i)]);
  std::printf("exact match %.1f%% (%lld/%lld), unparsable %lld\n", 100.0 * double(s.exact) / double(s.n),
              (long long)s.exact, (long long)s.n, (long long)(s.n - s.parsed));
  if (s.parsed > 0)
    std::printf("R2 %.4f, MAE %.0f, MAPE %.4f (over the %lld parsed answers)\n", s.r2, s.mae, s.mape,
                (long long)s.parsed);
  return s;
}

}  // namespace attic::lab
