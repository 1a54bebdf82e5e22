#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "data/bpe.h"
#include "data/gpt2_pretokenize.h"
#include "tensor/error.h"

namespace attic {

namespace {

// One distinct piece of the text: its tokens so far, and how often the text holds it.
struct Word {
  std::vector<int32_t> ids;
  int64_t count = 0;
};

// A pair of neighbouring tokens (a, b) as one key: a in the high 32 bits, b in the low.
uint64_t pair_key(int32_t a, int32_t b) { return uint64_t(a) << 32 | uint32_t(b); }

// ids with every (a, b) replaced by id, scanning left to right, so that a a a becomes id a
// (minbpe's merge()).
void replace_pair(std::vector<int32_t>& ids, int32_t a, int32_t b, int32_t id) {
  size_t out = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    const bool pair = i + 1 < ids.size() && ids[i] == a && ids[i + 1] == b;
    ids[out++] = pair ? id : ids[i];
    i += pair;
  }
  ids.resize(out);
}

}  // namespace

// text, vocab_size -> the tokenizer that Karpathy's minbpe (minbpe/regex.py, RegexTokenizer.train)
// trains with GPT-2's pattern: split the text into pieces, each piece starting as its bytes;
// then vocab_size - 257 times, take the pair of neighbouring tokens that occurs most often
// within pieces, make their concatenation the next token, and replace the pair by it in every
// piece. A tie goes to the pair that occurs first in the text, as Python's
// max(stats, key=stats.get) breaks it: stats is filled in text order, and max keeps the first.
//
// minbpe recounts every pair of the whole text for each merge. Here each distinct piece is
// kept once with its number of occurrences (equal pieces merge alike), so a pair's count is
// the sum of those numbers; after a merge only the pieces that held the merged pair are
// recounted, and `where` lists them. The pieces are numbered in the order the text first shows
// them, so a pair's first occurrence in the text is in the lowest-numbered piece that holds it.
BpeTokenizer BpeTokenizer::train(const std::string& text, int64_t vocab_size) {
  ATTIC_CHECK(vocab_size >= 257 && vocab_size <= (int64_t(1) << 30), "BpeTokenizer::train: "
              "vocab_size ", vocab_size, " is outside [257, 2^30]: it counts the 256 bytes, the "
              "merges and <|endoftext|>");
  std::vector<Word> words;
  {
    std::unordered_map<std::string_view, size_t> index;  // piece -> its place in words
    for (std::string_view piece : gpt2_pieces(text)) {
      const auto [it, fresh] = index.try_emplace(piece, words.size());
      if (fresh) {
        words.emplace_back();
        for (unsigned char byte : piece) words.back().ids.push_back(byte);
      }
      ++words[it->second].count;
    }
  }

  std::unordered_map<uint64_t, int64_t> counts;        // pair -> occurrences in the text
  std::unordered_map<uint64_t, std::set<int32_t>> where;  // pair -> the words that hold it
  auto count_word = [&](int32_t w, int sign) {  // adds (+1) or removes (-1) word w's pairs
    const std::vector<int32_t>& ids = words[size_t(w)].ids;
    for (size_t i = 0; i + 1 < ids.size(); ++i) {
      const uint64_t p = pair_key(ids[i], ids[i + 1]);
      if (sign > 0) {
        counts[p] += words[size_t(w)].count;
        where[p].insert(w);
      } else {
        if ((counts[p] -= words[size_t(w)].count) == 0) counts.erase(p);
        // (A pair that the word holds twice may be gone from where already.)
        const auto it = where.find(p);
        if (it != where.end() && it->second.erase(w) && it->second.empty()) where.erase(it);
      }
    }
  };
  // Where the text first shows pair p: (word, offset in its ids), to compare with <.
  auto first_seen = [&](uint64_t p) {
    const int32_t w = *where.at(p).begin();
    const std::vector<int32_t>& ids = words[size_t(w)].ids;
    size_t i = 0;
    while (pair_key(ids[i], ids[i + 1]) != p) ++i;
    return std::pair(w, i);
  };
  for (size_t w = 0; w < words.size(); ++w) count_word(int32_t(w), +1);

  std::vector<std::string> tokens;
  for (int b = 0; b < 256; ++b) tokens.push_back(std::string(1, char(b)));
  const int64_t merges = vocab_size - 257;
  for (int64_t m = 0; m < merges; ++m) {
    ATTIC_CHECK(!counts.empty(), "BpeTokenizer::train: after ", m, " merges every piece of the "
                "text is one token, so there is no pair left to merge: this text allows a "
                "vocab_size of at most ", 257 + m, ", not ", vocab_size);
    uint64_t best = 0;
    int64_t best_count = 0;
    std::pair<int32_t, size_t> best_seen;
    for (const auto& [p, n] : counts) {
      if (n < best_count) continue;
      const auto seen = first_seen(p);
      if (n > best_count || seen < best_seen) {
        best = p;
        best_count = n;
        best_seen = seen;
      }
    }
    const int32_t a = int32_t(best >> 32), b = int32_t(best & 0xFFFFFFFF);
    const int32_t id = int32_t(tokens.size());
    tokens.push_back(tokens[size_t(a)] + tokens[size_t(b)]);
    const std::set<int32_t> holders = where.at(best);  // a copy: count_word changes where
    for (int32_t w : holders) {
      count_word(w, -1);
      replace_pair(words[size_t(w)].ids, a, b, id);
      count_word(w, +1);
    }
  }
  return BpeTokenizer(std::move(tokens));
}

}  // namespace attic
