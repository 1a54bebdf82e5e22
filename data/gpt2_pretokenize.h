// GPT-2's pre-tokenizer: the split of text into pieces that byte-pair encoding then encodes one
// by one, so that no token spans two pieces (a word and the space before it stay together, a
// word and the punctuation after it do not). The split is the regular expression of OpenAI's
// gpt-2 (src/encoder.py), which tiktoken's r50k_base and gpt2 encodings use too:
//
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// matched here by hand, leftmost alternative first, as a backtracking regex engine does.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace attic {

// The end of the piece that starts at text[pos], pos < text.size(): the first of the
// pattern's alternatives that matches there decides it, and some alternative always does.
//
// The text is bytes. Valid UTF-8 is read as code points; a byte that is not part of a valid
// UTF-8 sequence counts as one character that is neither letter, number nor white space, as
// Python's regex module sees the lone surrogate that errors="surrogateescape" decodes it to.
size_t gpt2_piece_end(std::string_view text, size_t pos);

// text -> its pieces, in order; they concatenate back to text exactly. Empty text: none.
// gpt2_pieces("Hello world's  end\n") -> "Hello", " world", "'s", " ", " end", "\n".
std::vector<std::string_view> gpt2_pieces(std::string_view text);

}  // namespace attic
