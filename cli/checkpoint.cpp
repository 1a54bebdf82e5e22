#include "cli/checkpoint.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "nn/safetensors.h"

namespace attic::cli {

std::string model_path(const std::string& out_dir) { return out_dir + "/ckpt.safetensors"; }
std::string optimizer_path(const std::string& out_dir) { return out_dir + "/optim.safetensors"; }

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

static int64_t to_int(const std::string& s, const std::string& what) {
  try {
    size_t used = 0;
    const long long v = std::stoll(s, &used);
    if (used == s.size()) return v;
  } catch (const std::exception&) {
  }
  fail("checkpoint: bad ", what, " '", s, "'");
}

static CheckpointInfo parse_info(const std::map<std::string, std::string>& m, const std::string& path) {
  CheckpointInfo info;
  ATTIC_CHECK(m.count("format") && m.at("format") == "attic-gpt-1", "checkpoint '", path,
              "' was not written by attic train (no format attic-gpt-1 in its metadata)");
  info.config = field(m, "config", path);
  // A checkpoint from before the attention socket has nanoGPT's softmax attention.
  info.attention = m.count("attention") ? m.at("attention") : "softmax";
  info.attention_options = m.count("attention_options") ? m.at("attention_options") : "";
  info.vocabulary = field(m, "vocabulary", path);
  info.iter_num = to_int(field(m, "iter_num", path), "iter_num");
  info.best_val_loss = std::strtod(field(m, "best_val_loss", path).c_str(), nullptr);
  std::istringstream rng(field(m, "rng", path));
  for (uint64_t& w : info.rng)
    ATTIC_CHECK(bool(rng >> w), "checkpoint '", path, "': bad rng state in its metadata");
  return info;
}

void save_checkpoint(const std::string& out_dir, const nn::Module& model,
                     const optim::Optimizer& opt, const CheckpointInfo& info) {
  std::filesystem::create_directories(out_dir);
  std::ostringstream rng;
  for (size_t i = 0; i < info.rng.size(); ++i) rng << (i ? " " : "") << info.rng[i];
  const std::map<std::string, std::string> meta = {
      {"format", "attic-gpt-1"},
      {"config", info.config},
      {"attention", info.attention},
      {"attention_options", info.attention_options},
      {"vocabulary", info.vocabulary},
      {"iter_num", std::to_string(info.iter_num)},
      {"best_val_loss", exact(info.best_val_loss)},
      {"rng", rng.str()},
  };
  // The optimizer first: if the process dies between the two writes, the model file still
  // names the older iteration and load_optimizer() reports the mismatch.
  nn::save_safetensors(optimizer_path(out_dir), opt.state_dict(),
                       {{"iter_num", std::to_string(info.iter_num)}});
  nn::save(model, model_path(out_dir), meta);
}

CheckpointInfo read_checkpoint_info(const std::string& out_dir) {
  const std::string path = model_path(out_dir);
  return parse_info(nn::load_safetensors(path).metadata, path);
}

CheckpointInfo load_model(const std::string& out_dir, nn::Module& model,
                          const std::string& attention, const std::string& attention_options) {
  const std::string path = model_path(out_dir);
  const CheckpointInfo info = read_checkpoint_info(out_dir);
  auto described = [](const std::string& name, const std::string& options) {
    return options.empty() ? name : name + " (" + options + ")";
  };
  ATTIC_CHECK(info.attention == attention && info.attention_options == attention_options,
              "checkpoint '", path, "' was trained with attention ",
              described(info.attention, info.attention_options), ", but the model was built with ",
              described(attention, attention_options));
  return parse_info(nn::load(model, path), path);
}

void load_optimizer(const std::string& out_dir, optim::Optimizer& opt, int64_t iter_num) {
  const std::string path = optimizer_path(out_dir);
  nn::SafetensorsFile f = nn::load_safetensors(path);
  const int64_t it = to_int(field(f.metadata, "iter_num", path), "iter_num");
  ATTIC_CHECK(it == iter_num, "checkpoint: '", path, "' is from iteration ", it, " but '",
              model_path(out_dir), "' is from iteration ", iter_num);
  opt.load_state_dict(f.tensors);
}

}  // namespace attic::cli
