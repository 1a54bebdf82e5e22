// Chapter 23: byte-pair encoding by hand, the way Karpathy's minbpe trains (BasicTokenizer):
// count the pairs of neighbouring ids, give the most frequent pair the next id, replace it
// everywhere, repeat. Then BpeTokenizer::train on the same text.
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "data/bpe.h"

using namespace attic;
using Pair = std::pair<int64_t, int64_t>;

// minbpe's get_stats, then max(stats, key=stats.get): the most frequent pair of neighbours.
// A tie goes to the pair that occurs first, since Python's dict keeps the order of insertion
// and max keeps the first of equal values.
Pair most_frequent(const std::vector<int64_t>& ids, int64_t& count_out) {
  std::map<Pair, int64_t> count;
  std::vector<Pair> order;  // the pairs in the order the text first shows them
  for (size_t i = 0; i + 1 < ids.size(); ++i) {
    const Pair p{ids[i], ids[i + 1]};
    if (count[p]++ == 0) order.push_back(p);
  }
  Pair best = order[0];
  for (const Pair& p : order)
    if (count[p] > count[best]) best = p;
  count_out = count[best];
  return best;
}

// minbpe's merge: each occurrence of the pair, left to right, becomes id.
std::vector<int64_t> merge(const std::vector<int64_t>& ids, Pair pair, int64_t id) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i + 1 < ids.size() && ids[i] == pair.first && ids[i + 1] == pair.second) {
      out.push_back(id);
      ++i;
    } else {
      out.push_back(ids[i]);
    }
  }
  return out;
}

void print_ids(const char* label, const std::vector<int64_t>& ids) {
  std::printf("%-22s", label);
  for (int64_t id : ids) std::printf(" %lld", (long long)id);
  std::printf("\n");
}

int main() {
  // The example of minbpe's README (and Wikipedia's article on byte-pair encoding).
  const std::string text = "aaabdaaabac";
  std::vector<int64_t> ids(text.begin(), text.end());  // ASCII: a = 97, b = 98, ...
  std::map<int64_t, std::string> vocab;                 // id -> its bytes
  for (int b = 0; b < 256; ++b) vocab[b] = std::string(1, char(b));
  print_ids("bytes:", ids);
  for (int64_t id = 256; id < 259; ++id) {
    int64_t n = 0;
    const Pair p = most_frequent(ids, n);
    vocab[id] = vocab[p.first] + vocab[p.second];
    ids = merge(ids, p, id);
    char label[64];
    std::snprintf(label, sizeof label, "merge (%lld, %lld) -> %lld:", (long long)p.first,
                  (long long)p.second, (long long)id);
    print_ids(label, ids);
    std::printf("%22s %lld times; %lld is \"%s\"\n", "", (long long)n, (long long)id, vocab[id].c_str());
  }

  // The library: vocab_size counts the 256 bytes, the merges and <|endoftext|>.
  const BpeTokenizer tok = BpeTokenizer::train(text, 256 + 3 + 1);
  for (int64_t id = 256; id < tok.vocab_size(); ++id)
    std::printf("BpeTokenizer id %lld: \"%s\"\n", (long long)id, std::string(tok.token_bytes(id)).c_str());
  print_ids("BpeTokenizer::encode:", tok.encode(text));
  std::printf("decode gives back \"%s\"\n", tok.decode(tok.encode(text)).c_str());
  return 0;
}
