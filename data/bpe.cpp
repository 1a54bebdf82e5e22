#include "data/bpe.h"

#include <functional>
#include <queue>
#include <utility>

#include "data/gpt2_pretokenize.h"
#include "tensor/error.h"
#include "util/quote_value.h"

namespace attic {

// tokens [N, in rank order] -> rank_of_[tokens[r]] = r, after checking that every token is
// there once, none is empty, and each of the 256 bytes is one (so any piece can be merged
// from its bytes).
BpeTokenizer::BpeTokenizer(std::vector<std::string> tokens) : tokens_(std::move(tokens)) {
  rank_of_.reserve(tokens_.size());
  for (size_t r = 0; r < tokens_.size(); ++r) {
    ATTIC_CHECK(!tokens_[r].empty(), "BpeTokenizer: the token of rank ", r, " is empty");
    const auto [it, fresh] = rank_of_.emplace(tokens_[r], int64_t(r));
    ATTIC_CHECK(fresh, "BpeTokenizer: ranks ", it->second, " and ", r, " are the same token ",
                util::quote_value(tokens_[r]));
  }
  for (int b = 0; b < 256; ++b)
    ATTIC_CHECK(rank_of(std::string(1, char(b))) >= 0, "BpeTokenizer: the byte ",
                util::quote_value(std::string(1, char(b))), " is no token, but all 256 bytes must "
                "be, so that any text can be encoded (the ", tokens_.size(), " ranks lack it)");
}

BpeTokenizer BpeTokenizer::from_ranks(std::vector<std::string> tokens) {
  return BpeTokenizer(std::move(tokens));
}

int64_t BpeTokenizer::rank_of(std::string_view bytes) const {
  const auto it = rank_of_.find(bytes);
  return it == rank_of_.end() ? -1 : it->second;
}

std::string_view BpeTokenizer::token_bytes(int64_t id) const {
  ATTIC_CHECK(id >= 0 && id < vocab_size(), "BpeTokenizer::token_bytes: id ", id,
              " is out of range for vocab size ", vocab_size());
  return id == eot_id() ? kEndOfText : std::string_view(tokens_[size_t(id)]);
}

// piece [n bytes] -> its tokens' ranks appended to ids, by tiktoken's rule (OpenAI's tiktoken,
// src/lib.rs, byte_pair_encode): start from the n single bytes and, while two neighbouring
// parts together are a token, merge the two whose token has the lowest rank (on a tie, the
// leftmost).
//
// The parts are a linked list over the piece's byte offsets: the part that starts at s ends at
// end[s], and the part before it starts at prev[s]. A min-heap holds (rank, s) for the merge
// of the part at s with the one after it, whose rank is also kept in rank_at[s]: an entry that
// no longer matches rank_at[s] was outdated by an earlier merge and is skipped. So a piece of
// n bytes takes O(n log n) (tiktoken's _byte_pair_merge_large); tiktoken's short-piece code
// rescans every pair after each merge instead, O(n^2), and makes the same merges.
void BpeTokenizer::merge_piece(std::string_view piece, std::vector<int64_t>& ids) const {
  const size_t n = piece.size();
  std::vector<size_t> end(n), prev(n);
  std::vector<int64_t> rank_at(n, -1);  // -1: no merge
  using Merge = std::pair<int64_t, size_t>;  // (rank, s): the lowest rank, then leftmost, first
  std::priority_queue<Merge, std::vector<Merge>, std::greater<>> heap;
  auto rerank = [&](size_t s) {  // the merge of the part at s with the next part, if any
    rank_at[s] = end[s] < n ? rank_of(piece.substr(s, end[end[s]] - s)) : -1;
    if (rank_at[s] >= 0) heap.emplace(rank_at[s], s);
  };
  for (size_t s = 0; s < n; ++s) {
    end[s] = s + 1;
    prev[s] = s - 1;  // wraps around for s = 0, which is never read
  }
  for (size_t s = 0; s < n; ++s) rerank(s);
  while (!heap.empty()) {
    const auto [rank, s] = heap.top();
    heap.pop();
    if (rank != rank_at[s]) continue;
    const size_t next = end[s];
    end[s] = end[next];  // the part at s takes in the next one
    rank_at[next] = -1;
    if (end[s] < n) prev[end[s]] = s;
    rerank(s);
    if (s > 0) rerank(prev[s]);
  }
  for (size_t s = 0; s < n; s = end[s]) ids.push_back(rank_of(piece.substr(s, end[s] - s)));
}

// text -> ids appended: each of text's GPT-2 pieces is one token if it is a token (tiktoken's
// CoreBPE::encode_ordinary looks the whole piece up first), else merged from its bytes. A text
// repeats its pieces, so cache holds the tokens of each piece merged so far.
void BpeTokenizer::encode_ordinary_into(std::string_view text, Cache& cache,
                                        std::vector<int64_t>& ids) const {
  for (size_t pos = 0; pos < text.size();) {
    const size_t end = gpt2_piece_end(text, pos);
    const std::string_view piece = text.substr(pos, end - pos);
    pos = end;
    if (const int64_t rank = rank_of(piece); rank >= 0) {
      ids.push_back(rank);
      continue;
    }
    const auto [it, fresh] = cache.try_emplace(piece);
    if (fresh) merge_piece(piece, it->second);
    ids.insert(ids.end(), it->second.begin(), it->second.end());
  }
}

std::vector<int64_t> BpeTokenizer::encode_ordinary(std::string_view text) const {
  std::vector<int64_t> ids;
  Cache cache;
  encode_ordinary_into(text, cache, ids);
  return ids;
}

// text -> ids: the text between <|endoftext|>s encoded as ordinary text, each <|endoftext|> as
// eot_id(). No piece spans a special token, as in tiktoken's CoreBPE::encode.
std::vector<int64_t> BpeTokenizer::encode(std::string_view text) const {
  std::vector<int64_t> ids;
  Cache cache;
  for (size_t pos = 0;;) {
    const size_t special = text.find(kEndOfText, pos);
    const size_t stop = special == std::string_view::npos ? text.size() : special;
    encode_ordinary_into(text.substr(pos, stop - pos), cache, ids);
    if (stop == text.size()) return ids;
    ids.push_back(eot_id());
    pos = special + kEndOfText.size();
  }
}

// ids [N] -> the bytes of each id, concatenated.
std::string BpeTokenizer::decode(const std::vector<int64_t>& ids) const {
  std::string text;
  for (size_t i = 0; i < ids.size(); ++i) {
    ATTIC_CHECK(ids[i] >= 0 && ids[i] < vocab_size(), "BpeTokenizer::decode: id ", ids[i],
                " at position ", i, " is out of range for vocab size ", vocab_size());
    text += token_bytes(ids[i]);
  }
  return text;
}

}  // namespace attic
