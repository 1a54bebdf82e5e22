// attic data: write a generated dataset to a text file that `attic train --dataset=FILE`
// reads with the usual 90/10 split.
//
//   attic data digit_mul --digits=4 --lines=500000 --out=digit_mul_4.txt
//
// digit_mul is the char-level multiplication task of Vadimbuildercxx/reflex_attention
// (data/digit_mul.h). The same text, with seed 0 and 500,000 lines, is what the dataset
// name digit_mul:4 (or digit_mul:5) generates in memory.
#include <iostream>
#include <limits>
#include <sstream>

#include "util/command_line.h"
#include "cli/commands.h"
#include "util/files.h"
#include "data/digit_mul.h"
#include "data/tokenizer.h"
#include "tensor/error.h"
#include "util/atomic_file.h"

namespace attic::cli {

using namespace util;

int data(const std::vector<std::string>& args) {
  ATTIC_CHECK(!args.empty() && args[0] == "digit_mul", "data: expected 'attic data digit_mul', got '",
              args.empty() ? std::string() : args[0], "'");
  int64_t digits = 4, lines = 500000, seed = 0;
  std::string out;
  Options opts;
  opts.bind("digits", digits, "digits of a and of b (1..9); the fork's char-level runs use 4");
  opts.bind("lines", lines, "problems, one per line").int_range(1, 100000000);
  opts.bind("seed", seed, "the generator's seed (0 is what digit_mul:4 and digit_mul:5 use)")
      .int_range(0, std::numeric_limits<int64_t>::max());
  opts.bind("out", out, "the text file to write").non_empty();
  std::ostringstream quiet;
  if (!parse_command_line(opts, {args.begin() + 1, args.end()},
                          "usage: attic data digit_mul --out=FILE [--key=value ...]", quiet))
    return 0;
  ATTIC_CHECK(!out.empty(), "data digit_mul: --out=FILE is required");
  check_output_file(out, "the dataset (--out)");
  const std::string text = digit_mul_text(digits, lines, uint64_t(seed));
  util::write_file_atomic(out, text);
  const CharTokenizer tok = CharTokenizer::from_text(text);
  std::cout << "wrote " << out << ": " << lines << " lines, " << text.size() << " characters, vocab "
            << tok.vocab_size() << "\n";
  return 0;
}

}  // namespace attic::cli
