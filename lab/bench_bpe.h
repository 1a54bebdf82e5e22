// attic bench bpe: GPT-2's byte-level BPE (data/bpe.h) training and encoding speed on a text,
// one thread, beside tiktoken's (bench/peer/make_bpe_fixture.py --bench-ranks FILE times
// tiktoken with the ranks this saves).
#pragma once

#include <cstdint>
#include <string>

namespace attic::lab {

// Trains a BPE of vocab ids on text_path (empty: the shipped Shakespeare), saves it to
// save_path when given, then prints the best of `rounds` encode_ordinary times of the whole
// text as tokens/s.
int bench_bpe(const std::string& text_path, int64_t vocab, int64_t rounds, const std::string& save_path, bool json);

}  // namespace attic::lab
