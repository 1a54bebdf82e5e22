// attic sample: nanoGPT's sample.py. Loads out_dir's checkpoint, encodes the prompt
// (--start=TEXT, or --start=FILE:path), and prints num_samples continuations.
#include <limits>
#include <iostream>
#include <sstream>

#include "util/command_line.h"
#include "cli/commands.h"
#include "util/device_flag.h"
#include "util/files.h"
#include "train/out_of_memory.h"
#include "models/gpt/gpt2_folder.h"
#include "train/restore.h"
#include "tensor/threads.h"

namespace attic::cli {

using namespace train;
using namespace util;

int sample(const std::vector<std::string>& args) {
  std::string out_dir = "out", start = "\n", device = "cpu", init_from = "resume", gpt2_dir, dtype = "float32";
  int64_t num_samples = 10, max_new_tokens = 500, top_k = 200, seed = 1337, threads = 0;
  double temperature = 0.8;
  bool use_cache = true, compile = false;
  Options opts;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  opts.bind("out_dir", out_dir, "the checkpoint's folder").non_empty();
  opts.bind("start", start, "prompt text, taken exactly as given, or FILE:path to read it from a file");
  opts.bind("num_samples", num_samples).int_range(1, kMax);
  opts.bind("max_new_tokens", max_new_tokens).int_range(0, kMax);
  opts.bind("temperature", temperature, "< 1 sharper, > 1 more random, 0 greedy")
      .float_range(0, std::numeric_limits<double>::infinity());
  opts.bind("top_k", top_k, "keep only the k most likely tokens (0: all)").int_range(0, kMax);
  opts.bind("seed", seed).int_range(0, kMax);
  opts.bind("use_cache", use_cache, "feed each new token alone through the attentions' caches "
            "(the same tokens, faster)");
  opts.bind("device", device, "cpu or cuda");
  opts.bind("threads", threads, "CPU threads (0: all)").int_range(0, kMaxThreads);
  opts.bind("init_from", init_from, "resume (out_dir's checkpoint), or gpt2, gpt2-medium, gpt2-large, gpt2-xl "
            "or huggingface, read from gpt2_dir").non_empty();
  opts.bind("gpt2_dir", gpt2_dir, "with init_from = gpt2...: the folder of Hugging Face's files (config.json, "
            "model.safetensors, vocab.json, merges.txt)");
  opts.bind("dtype", dtype, "float32, bfloat16 (the model's products in bfloat16, summed in float32), "
            "or float16 on cuda").non_empty();
  opts.bind("compile", compile, "nanoGPT's torch.compile; attic has no compile step, so true changes nothing");
  std::ostringstream quiet;  // sample prints only the samples on stdout
  if (!parse_command_line(opts, args, "usage: attic sample [--key=value ...]", quiet)) return 0;
  ATTIC_CHECK(init_from == "resume" || models::is_gpt2_name(init_from), "sample: init_from must be resume, gpt2, "
              "gpt2-medium, gpt2-large, gpt2-xl or huggingface, got '", init_from, "'");
  const DType compute = parse_autocast_dtype("sample: dtype", dtype);
  const Device dev = device_from_flag(device);
  ATTIC_CHECK(compute != kFloat16 || dev == Device::CUDA, "sample: dtype = float16 runs on "
              "cuda only: the CPU has no float16 products (give dtype = bfloat16 or float32)");
  if (threads > 0) set_num_threads(int(threads));

  std::string what = "--start";  // where the prompt came from, for errors
  if (start.rfind("FILE:", 0) == 0) {
    const std::string path = start.substr(5);
    start = read_text_file(path, "the prompt file (--start=FILE:)");
    what = "the prompt file '" + path + "'";
  }
  ATTIC_CHECK(!start.empty(), "sample: the prompt is empty (", what, "); give --start=TEXT");
  Restored r;
  if (models::is_gpt2_name(init_from)) {
    TrainConfig cfg;
    Options o;
    cfg.bind(o);
    cfg.init_from = init_from;
    cfg.gpt2_dir = gpt2_dir;
    cfg.take_gpt2_shape(o);
    r = restore_gpt2(cfg);
  } else {
    r = restore(out_dir);
  }
  r.config.compile = compile;
  r.config.dtype = dtype;
  r.config.print_notes(std::cerr);  // stdout holds the samples alone
  r.model->to(dev);
  std::vector<int64_t> ids;
  try {
    ids = r.tokenizer->encode(start);
  } catch (const Error& e) {
    fail("sample: the prompt (", what, ") does not fit the checkpoint's vocabulary: ", e.what());
  }
  const Tensor prompt = from_vector(ids, {1, int64_t(ids.size())});
  Generator gen{static_cast<uint64_t>(seed)};
  // The weights stay float32, as the checkpoint holds them; the products round them.
  const AutocastGuard cast(compute);
  for (int64_t s = 0; s < num_samples; ++s) {
    const Tensor out = naming_settings(
        "sample: generating", model_size_settings(r.config) + " max_new_tokens=" +
                                  std::to_string(max_new_tokens),
        [&] { return r.model->generate(prompt, max_new_tokens, temperature, top_k, &gen, use_cache); });
    std::cout << r.tokenizer->decode(out.to_vector<int64_t>()) << "\n---------------\n";
    std::cout.flush();
  }
  return 0;
}

}  // namespace attic::cli
