#include "train/checkpoint_shapes.h"

#include <set>

#include "models/registry.h"

namespace attic::train {

using namespace util;

namespace {

// The number of distinct i in tensor names "<prefix><i>.<rest>".
int64_t count_layers(const nn::StateDict& tensors, const std::string& prefix) {
  std::set<std::string> seen;
  for (const auto& [name, t] : tensors) {
    if (name.rfind(prefix, 0) != 0) continue;
    const size_t dot = name.find('.', prefix.size());
    if (dot != std::string::npos) seen.insert(name.substr(prefix.size(), dot - prefix.size()));
  }
  return int64_t(seen.size());
}

}  // namespace

void check_config_against_tensors(const TrainConfig& cfg, int64_t vocab_size,
                                  const nn::StateDict& tensors, const std::string& path) {
  const models::StateLayout& declared = models::find_model(cfg.model).layout;
  const models::StateLayout l = declared.for_spec ? declared.for_spec(cfg.model_spec(vocab_size)) : declared;
  const std::string where = "checkpoint '" + path + "': its config ";
  auto table = [&](const std::string& name) -> const Tensor& {
    auto it = tensors.find(name);
    ATTIC_CHECK(it != tensors.end(), where, "says model = ", cfg.model, ", whose tensor '", name,
                "' the file does not hold");
    ATTIC_CHECK(it->second.dim() == 2, where, "says model = ", cfg.model, ", whose '", name,
                "' is a matrix, but the file's has shape ", str(it->second.shape()));
    return it->second;
  };
  const Tensor& tokens = table(l.tokens);
  ATTIC_CHECK(tokens.size(0) == vocab_size, "checkpoint '", path, "': its vocabulary has ",
              vocab_size, " characters, but '", l.tokens, "' has ", tokens.size(0), " rows");
  if (l.width > 0) {
    ATTIC_CHECK(tokens.size(1) == l.width, where, "gives an embedding width of ", l.width, ", but '", l.tokens,
                "' has shape ", str(tokens.shape()));
  } else {
    ATTIC_CHECK(tokens.size(1) == cfg.n_embd, where, "says n_embd = ", cfg.n_embd, ", but '",
                l.tokens, "' has shape ", str(tokens.shape()));
  }
  if (!l.positions.empty()) {
    const Tensor& positions = table(l.positions);
    ATTIC_CHECK(positions.size(0) == cfg.block_size, where, "says block_size = ", cfg.block_size,
                ", but '", l.positions, "' has shape ", str(positions.shape()));
  }
  const int64_t layers = count_layers(tensors, l.layers);
  ATTIC_CHECK(layers % l.per_layer == 0 && layers / l.per_layer == cfg.n_layer, where,
              "says n_layer = ", cfg.n_layer, ", but the file holds ", layers / l.per_layer,
              " layers ('", l.layers, "<i>.')");
  const std::string& suffix = l.by_block;  // the Linformer's E [k, block_size], say
  if (!suffix.empty())
    for (const auto& [name, t] : tensors)
      if (name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 && t.dim() == 2)
        ATTIC_CHECK(t.size(1) == cfg.block_size, where, "says block_size = ", cfg.block_size,
                    ", but '", name, "' has shape ", str(t.shape()));
}

}  // namespace attic::train
