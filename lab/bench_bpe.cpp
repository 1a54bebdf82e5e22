#include "lab/bench_bpe.h"

#include <chrono>
#include <cstdio>

#include "data/bpe.h"
#include "data/text_dataset.h"
#include "util/files.h"

namespace attic::lab {

int bench_bpe(const std::string& text_path, int64_t vocab, int64_t rounds, const std::string& save_path, bool json) {
  using Clock = std::chrono::steady_clock;
  const std::string path = text_path.empty() ? default_dataset_path() : text_path;
  const std::string text = util::read_text_file(path, "the text (--text)");
  auto t0 = Clock::now();
  const BpeTokenizer tok = BpeTokenizer::train(text, vocab);
  const double train_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!save_path.empty()) tok.save(save_path);
  double best = 1e300;
  size_t n = 0;
  for (int64_t r = 0; r < rounds; ++r) {
    t0 = Clock::now();
    n = tok.encode_ordinary(text).size();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  if (json)
    std::printf("{\"bench\": \"bpe\", \"vocab\": %lld, \"bytes\": %zu, \"tokens\": %zu, \"train_s\": %.4f, "
                "\"encode_ms\": %.2f, \"tokens_per_s\": %.0f}\n",
                (long long)vocab, text.size(), n, train_s, best * 1e3, double(n) / best);
  else
    std::printf("bpe: trained %lld ids on %s (%zu bytes) in %.3f s; encode_ordinary -> %zu tokens: best of %lld "
                "%.1f ms, %.2f M tokens/s (one thread)%s%s\n",
                (long long)vocab, path.c_str(), text.size(), train_s, n, (long long)rounds, best * 1e3,
                double(n) / best / 1e6, save_path.empty() ? "" : "; saved ", save_path.c_str());
  return 0;
}

}  // namespace attic::lab
