#include "train/checkpoint.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

#include "nn/safetensors.h"
#include "ops/ops.h"
#include "util/atomic_file.h"
#include "util/utf8.h"

namespace attic::train {

using namespace util;

namespace fs = std::filesystem;

std::string model_path(const std::string& out_dir) { return out_dir + "/ckpt.safetensors"; }
std::string optimizer_path(const std::string& out_dir) { return out_dir + "/optim.safetensors"; }
std::string pending_optimizer_path(const std::string& out_dir) { return optimizer_path(out_dir) + ".next"; }

// %a prints a double in hexadecimal, which reads back bit for bit.
static std::string exact(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

static const std::string& field(const std::map<std::string, std::string>& m, const std::string& key,
                                const std::string& path) {
  auto it = m.find(key);
  ATTIC_CHECK(it != m.end(), "checkpoint '", path, "' has no '", key, "' in its metadata");
  return it->second;
}

// A metadata value as the error quotes it: at most 40 characters.
static std::string quoted(const std::string& s) {
  std::string q = "'";
  q.append(s, 0, 40);
  q.append(s.size() > 40 ? "...'" : "'");
  return q;
}

// A whole number of decimal digits, optionally after '-', that fits in int64.
static int64_t to_int(const std::string& s, const std::string& key, const std::string& path) {
  const bool digits = !s.empty() && s.find_first_not_of("0123456789", s[0] == '-' ? 1 : 0) == std::string::npos &&
                      s != "-";
  errno = 0;
  const long long v = digits ? std::strtoll(s.c_str(), nullptr, 10) : 0;
  ATTIC_CHECK(digits && errno == 0, "checkpoint '", path, "': metadata '", key, "' is ", quoted(s),
              ", not a whole number");
  return v;
}

static CheckpointInfo parse_info(const std::map<std::string, std::string>& m, const std::string& path) {
  CheckpointInfo info;
  ATTIC_CHECK(m.count("format") && m.at("format") == "attic-gpt-1", "checkpoint '", path,
              "' was not written by attic train (no format attic-gpt-1 in its metadata)");
  info.config = field(m, "config", path);
  // A checkpoint from before the attention socket has nanoGPT's softmax attention.
  info.attention = m.count("attention") ? m.at("attention") : "softmax";
  info.attention_options = m.count("attention_options") ? m.at("attention_options") : "";
  // A checkpoint from before the BPE has the character tokenizer.
  info.tokenizer = m.count("tokenizer") ? m.at("tokenizer") : "char";
  ATTIC_CHECK(info.tokenizer == "char" || info.tokenizer == "bpe", "checkpoint '", path,
              "': metadata 'tokenizer' is ", quoted(info.tokenizer), ", not char or bpe");
  // The character tokenizer's bytes travel as the code points U+0000..U+00FF (util/utf8.h):
  // JSON text must be UTF-8, and a vocabulary of bytes from non-ASCII text is not. A BPE's
  // record is UTF-8 text already.
  const std::optional<std::string> vocabulary = info.tokenizer == "bpe"
                                                    ? std::optional<std::string>(field(m, "vocabulary", path))
                                                    : util::utf8_as_bytes(field(m, "vocabulary", path));
  ATTIC_CHECK(vocabulary.has_value(), "checkpoint '", path, "': metadata 'vocabulary' holds a character above U+00FF; "
              "attic writes each byte of its vocabulary as one of U+0000..U+00FF");
  info.vocabulary = *vocabulary;
  ATTIC_CHECK(!info.vocabulary.empty(), "checkpoint '", path, "': metadata 'vocabulary' is empty");
  info.iter_num = to_int(field(m, "iter_num", path), "iter_num", path);
  ATTIC_CHECK(info.iter_num >= 0, "checkpoint '", path, "': metadata 'iter_num' is ", info.iter_num,
              ", below 0");

  // A cross-entropy is >= 0; +inf is the value before any evaluation.
  const std::string& best = field(m, "best_val_loss", path);
  char* end = nullptr;
  info.best_val_loss = std::strtod(best.c_str(), &end);
  ATTIC_CHECK(!best.empty() && end == best.c_str() + best.size() && info.best_val_loss >= 0, "checkpoint '",
              path, "': metadata 'best_val_loss' is ", quoted(best), ", not a loss (a number >= 0)");

  // Four unsigned 64-bit words, not all zero: xoshiro256** (tensor/random.h) started from
  // zeros returns zero forever.
  const std::string& rng = field(m, "rng", path);
  std::istringstream words(rng);
  std::string w;
  size_t n = 0;
  for (; words >> w; ++n) {
    ATTIC_CHECK(n < 4, "checkpoint '", path, "': metadata 'rng' is ", quoted(rng),
                ", more than the generator's 4 words");
    const bool digits = w.find_first_not_of("0123456789") == std::string::npos;
    errno = 0;
    info.rng[n] = digits ? std::strtoull(w.c_str(), nullptr, 10) : 0;
    ATTIC_CHECK(digits && errno == 0, "checkpoint '", path, "': metadata 'rng' is ", quoted(rng),
                "; its word ", quoted(w), " is not an unsigned 64-bit number");
  }
  ATTIC_CHECK(n == 4, "checkpoint '", path, "': metadata 'rng' is ", quoted(rng), ", ", n,
              " words; the generator's state is 4");
  ATTIC_CHECK(info.rng != (std::array<uint64_t, 4>{}), "checkpoint '", path,
              "': metadata 'rng' is all zeros, a state the generator never leaves");
  info.optimizer_fnv1a64 = m.count("optimizer_fnv1a64") ? m.at("optimizer_fnv1a64") : "";
  return info;
}

namespace {

// The first NaN or Inf among the floating-point tensors, in name order: which tensor, where
// and what. Tensors on another device are read through a CPU copy.
struct NonFinite {
  std::string name;
  int64_t index = 0;
  double value = 0;
};
std::optional<NonFinite> first_non_finite(const nn::StateDict& tensors) {
  for (const auto& entry : tensors) {
    // Named, not bound: clang before 16 cannot capture a structured binding in a lambda.
    const std::string& name = entry.first;
    if (entry.second.dtype() != kFloat32 && entry.second.dtype() != kFloat64) continue;
    const Tensor t = entry.second.to(Device::CPU).contiguous();
    const auto first = [&](const auto* p) -> std::optional<NonFinite> {
      for (int64_t i = 0; i < t.numel(); ++i)
        if (!std::isfinite(double(p[i]))) return NonFinite{name, i, double(p[i])};
      return std::nullopt;
    };
    const std::optional<NonFinite> bad = t.dtype() == kFloat32
                                             ? first(static_cast<const float*>(t.raw_data()))
                                             : first(static_cast<const double*>(t.raw_data()));
    if (bad) return bad;
  }
  return std::nullopt;
}

// A NaN or Inf in a saved tensor would come back as NaN losses: refused by name.
void check_finite(const std::string& path, const nn::StateDict& tensors) {
  if (const auto bad = first_non_finite(tensors))
    fail("checkpoint '", path, "': tensor '", bad->name, "' holds ", bad->value, " at element ",
         bad->index);
}

}  // namespace

// A save that stopped after its commit left the optimizer state the model names in the
// .next file. Before this save writes a new .next, that one is renamed into place, so that
// a kill between this save's steps still leaves a pair: the model on disk and the optimizer
// file it names. (The save holds the out_dir's lock; a resume only reads.)
static void finish_interrupted_save(const std::string& out_dir) {
  const std::string path = optimizer_path(out_dir), pending = pending_optimizer_path(out_dir);
  if (!fs::exists(pending) || !fs::exists(model_path(out_dir))) return;
  std::string named, held;
  try {
    named = read_checkpoint_info(out_dir).optimizer_fnv1a64;
    const nn::SafetensorsFile f = nn::load_safetensors(pending);
    held = f.metadata.count("fnv1a64") ? f.metadata.at("fnv1a64") : "";
  } catch (const Error&) {
    return;  // a torn pending file, or no readable model: this save replaces both
  }
  if (named.empty() || named != held) return;
  std::error_code ec;
  fs::rename(pending, path, ec);
  ATTIC_CHECK(!ec, "checkpoint: cannot rename '", pending, "' to '", path, "': ", ec.message());
  util::sync_directory_of(path);
}

void save_checkpoint(const std::string& out_dir, const nn::Module& model,
                     const optim::Optimizer& opt, const CheckpointInfo& info) {
  // A non-finite weight or moment is never saved: the pair already there stays good.
  for (const nn::StateDict& tensors : {model.state_dict(), opt.state_dict()})
    if (const auto bad = first_non_finite(tensors))
      fail("checkpoint: not saved to '", out_dir, "': tensor '", bad->name, "' holds ",
           bad->value, " at element ", bad->index, "; the checkpoint already there stays");
  fs::create_directories(out_dir);
  finish_interrupted_save(out_dir);
  std::ostringstream rng;
  for (size_t i = 0; i < info.rng.size(); ++i) rng << (i ? " " : "") << info.rng[i];
  // 1. The optimizer under its pending name, with its checksum.
  const std::string optimizer_sum =
      nn::save_safetensors(pending_optimizer_path(out_dir), opt.state_dict(),
                           {{"iter_num", std::to_string(info.iter_num)}}, /*checksum=*/true);
  // 2. The commit: the model, naming that checksum.
  const std::map<std::string, std::string> meta = {
      {"format", "attic-gpt-1"},
      {"config", info.config},
      {"attention", info.attention},
      {"attention_options", info.attention_options},
      {"tokenizer", info.tokenizer},
      {"vocabulary", info.tokenizer == "bpe" ? info.vocabulary : util::bytes_as_utf8(info.vocabulary)},
      {"iter_num", std::to_string(info.iter_num)},
      {"best_val_loss", exact(info.best_val_loss)},
      {"rng", rng.str()},
      {"optimizer_fnv1a64", optimizer_sum},
  };
  nn::save_safetensors(model_path(out_dir), model.state_dict(), meta, /*checksum=*/true);
  // 3. The optimizer to its own name.
  std::error_code ec;
  fs::rename(pending_optimizer_path(out_dir), optimizer_path(out_dir), ec);
  ATTIC_CHECK(!ec, "checkpoint: cannot rename '", pending_optimizer_path(out_dir), "' to '",
              optimizer_path(out_dir), "': ", ec.message());
  util::sync_directory_of(optimizer_path(out_dir));
}

CheckpointFile read_checkpoint(const std::string& out_dir) {
  CheckpointFile f;
  f.path = model_path(out_dir);
  nn::SafetensorsFile file = nn::load_safetensors(f.path);
  f.info = parse_info(file.metadata, f.path);
  // attic writes a model file's own checksum with the optimizer's that it names, so a file
  // naming one without the other lost its own (deleted, or its key changed) after writing:
  // it is not taken for an older file, which would be read unchecked.
  ATTIC_CHECK(f.info.optimizer_fnv1a64.empty() || file.metadata.count("fnv1a64"), "checkpoint '",
              f.path, "': it names its optimizer's checksum but has no checksum of its own "
              "(fnv1a64), as attic writes them together: the file was edited after it was written");
  check_finite(f.path, file.tensors);
  f.tensors = std::move(file.tensors);
  return f;
}

CheckpointInfo read_checkpoint_info(const std::string& out_dir) { return read_checkpoint(out_dir).info; }

void load_model(const CheckpointFile& file, nn::Module& model, const std::string& attention,
                const std::string& attention_options) {
  const CheckpointInfo& info = file.info;
  auto described = [](const std::string& name, const std::string& options) {
    return options.empty() ? name : name + " (" + options + ")";
  };
  ATTIC_CHECK(info.attention == attention && info.attention_options == attention_options,
              "checkpoint '", file.path, "' was trained with attention ",
              described(info.attention, info.attention_options), ", but the model was built with ",
              described(attention, attention_options));
  naming_file(file.path, [&] { model.load_state_dict(file.tensors, /*strict=*/true); });
}

CheckpointInfo load_model(const std::string& out_dir, nn::Module& model,
                          const std::string& attention, const std::string& attention_options) {
  const CheckpointFile file = read_checkpoint(out_dir);
  load_model(file, model, attention, attention_options);
  return file.info;
}

// The optimizer file the model names by its checksum: optim.safetensors, or the pending
// file of a save that stopped after its commit. Reading renames nothing (a refused resume
// leaves the folder as it was, and a running training may be about to rename it itself):
// the next save writes a new pending file and finishes with it.
static nn::SafetensorsFile matching_optimizer(const std::string& out_dir, const CheckpointInfo& model) {
  const std::string path = optimizer_path(out_dir), pending = pending_optimizer_path(out_dir);
  const std::string& want = model.optimizer_fnv1a64;
  std::string found = "it is missing";
  if (fs::exists(path)) {
    // A damaged optim.safetensors must not hide a pending file that matches.
    try {
      nn::SafetensorsFile f = nn::load_safetensors(path);
      const auto it = f.metadata.find("fnv1a64");
      if (it != f.metadata.end() && it->second == want) return f;
      found = it == f.metadata.end() ? "it has no checksum" : "its checksum is " + it->second;
    } catch (const Error& e) {
      found = std::string("it cannot be read (") + e.what() + ")";
    }
  }
  if (fs::exists(pending)) {
    nn::SafetensorsFile f;
    bool ok = false;
    try {
      f = nn::load_safetensors(pending);
      ok = f.metadata.count("fnv1a64") && f.metadata.at("fnv1a64") == want;
    } catch (const Error&) {  // a save that stopped while writing it: not the one wanted
    }
    if (ok) return f;
  }
  fail("checkpoint '", path, "' is not the optimizer state saved with '", model_path(out_dir),
       "': that file names the checksum ", want, ", but ", found,
       " (another run's or another save's?); --reset_optimizer=true resumes from the model alone");
}

void load_optimizer(const std::string& out_dir, optim::Optimizer& opt, const CheckpointInfo& model) {
  const std::string path = optimizer_path(out_dir);
  nn::SafetensorsFile f = model.optimizer_fnv1a64.empty() ? nn::load_safetensors(path)
                                                          : matching_optimizer(out_dir, model);
  const int64_t it = to_int(field(f.metadata, "iter_num", path), "iter_num", path);
  ATTIC_CHECK(it == model.iter_num, "checkpoint '", path, "' is from iteration ", it, " but '",
              model_path(out_dir), "' is from iteration ", model.iter_num);
  check_finite(path, f.tensors);
  naming_file(path, [&] {
    // One step per iteration at most: a larger count would make Adam's bias correction
    // 1 - beta^step underflow to 1 at best, and overflow int64 at worst.
    for (const auto& [key, t] : f.tensors) {
      if (key.size() < 5 || key.compare(key.size() - 5, 5, ".step") != 0 || t.dim() != 0) continue;
      const double step = t.item<double>();
      ATTIC_CHECK(step <= double(model.iter_num), "'", key, "' is ", step,
                  ", more optimizer steps than the ", model.iter_num, " iterations of the run");
    }
    // AdamW's running mean of squared gradients: its square root is taken at every step.
    for (const auto& [key, t] : f.tensors) {
      if (key.size() < 11 || key.compare(key.size() - 11, 11, ".exp_avg_sq") != 0) continue;
      const Tensor negative = lt(t, 0.0);
      ATTIC_CHECK(sum(negative).item<int64_t>() == 0, "'", key,
                  "' holds negative values; a mean of squares is >= 0");
    }
    opt.load_state_dict(f.tensors);
  });
}

}  // namespace attic::train
