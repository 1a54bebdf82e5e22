// attic sample: nanoGPT's sample.py. Loads out_dir's checkpoint, encodes the prompt
// (--start=TEXT, or --start=FILE:path), and prints num_samples continuations.
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/device.h"
#include "cli/restore.h"
#include "tensor/threads.h"

namespace attic::cli {

int sample(const std::vector<std::string>& args) {
  std::string out_dir = "out", start = "\n", device = "cpu";
  int64_t num_samples = 10, max_new_tokens = 500, top_k = 200, seed = 1337, threads = 0;
  double temperature = 0.8;
  bool use_cache = true;
  Options opts;
  opts.bind("out_dir", out_dir, "the checkpoint's folder");
  opts.bind("start", start, "prompt text, or FILE:path to read it from a file");
  opts.bind("num_samples", num_samples);
  opts.bind("max_new_tokens", max_new_tokens);
  opts.bind("temperature", temperature, "< 1 sharper, > 1 more random, 0 greedy");
  opts.bind("top_k", top_k, "keep only the k most likely tokens (0: all)");
  opts.bind("seed", seed);
  opts.bind("use_cache", use_cache, "feed each new token alone through the attentions' caches "
            "(the same tokens, faster)");
  opts.bind("device", device, "cpu or cuda");
  opts.bind("threads", threads, "CPU threads (0: all)");
  std::ostringstream quiet;  // sample prints only the samples on stdout
  if (!parse_command_line(opts, args, "usage: attic sample [--key=value ...]", quiet)) return 0;
  ATTIC_CHECK(num_samples > 0 && max_new_tokens >= 0, "num_samples must be positive and "
              "max_new_tokens >= 0, got ", num_samples, " and ", max_new_tokens);
  const Device dev = device_from_flag(device);
  if (threads > 0) set_num_threads(int(threads));

  if (start.rfind("FILE:", 0) == 0) {
    const std::string path = start.substr(5);
    std::ifstream in(path, std::ios::binary);
    ATTIC_CHECK(in.good(), "sample: cannot read the prompt file '", path, "'");
    start.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  Restored r = restore(out_dir);
  ATTIC_CHECK(!start.empty(), "sample: the prompt is empty; give --start=TEXT");
  r.model->module().to(dev);
  const std::vector<int64_t> ids = r.tokenizer->encode(start);
  const Tensor prompt = from_vector(ids, {1, int64_t(ids.size())});
  Generator gen{static_cast<uint64_t>(seed)};
  for (int64_t s = 0; s < num_samples; ++s) {
    const Tensor out = r.model->generate(prompt, max_new_tokens, temperature, top_k, &gen, use_cache);
    std::cout << r.tokenizer->decode(out.to_vector<int64_t>()) << "\n---------------\n";
    std::cout.flush();
  }
  return 0;
}

}  // namespace attic::cli
