#include "models/gpt/gpt2_folder.h"

#include <cmath>
#include <filesystem>
#include <map>

#include "nn/safetensors.h"
#include "ops/ops.h"
#include "tensor/error.h"
#include "util/atomic_file.h"
#include "util/files.h"
#include "util/json.h"

namespace attic::models {

const std::vector<Gpt2Size>& gpt2_sizes() {
  static const std::vector<Gpt2Size> sizes = {{"gpt2", 12, 12, 768, "124M"},
                                              {"gpt2-medium", 24, 16, 1024, "350M"},
                                              {"gpt2-large", 36, 20, 1280, "774M"},
                                              {"gpt2-xl", 48, 25, 1600, "1558M"}};
  return sizes;
}

bool is_gpt2_name(const std::string& name) {
  if (name == "huggingface") return true;
  for (const Gpt2Size& s : gpt2_sizes())
    if (s.name == name) return true;
  return false;
}

// What to fetch for name, for the one-line error of a missing folder or file.
static std::string download_hint(const std::string& name) {
  const std::string repo = name == "huggingface" ? "openai-community/gpt2" : "openai-community/" + name;
  return "download config.json, model.safetensors, vocab.json and merges.txt from the Hugging Face "
         "Hub's " + repo + " (https://huggingface.co/" + repo + "/tree/main) into one folder and pass "
         "it as --gpt2_dir=DIR";
}

static const json::Value& key_of(const json::Value& cfg, const std::string& key, const std::string& path) {
  const json::Value* v = cfg.find(key);
  ATTIC_CHECK(v != nullptr, path, ": no key '", key, "' (not a GPT-2 config.json)");
  return *v;
}

GPTConfig read_gpt2_config(const std::string& dir, const std::string& name) {
  ATTIC_CHECK(is_gpt2_name(name), "init_from '", name, "' is not a GPT-2: gpt2, gpt2-medium, gpt2-large, ",
              "gpt2-xl or huggingface");
  ATTIC_CHECK(!dir.empty(), "init_from = ", name, " needs GPT-2's files: ", download_hint(name));
  std::error_code ec;
  ATTIC_CHECK(std::filesystem::is_directory(dir, ec), "gpt2_dir '", dir, "' is not a folder: ", download_hint(name));
  const std::string path = dir + "/config.json";
  ATTIC_CHECK(std::filesystem::is_regular_file(path, ec), "gpt2_dir '", dir, "' has no config.json: ",
              download_hint(name));
  const json::Value cfg = json::parse(util::read_text_file(path, "GPT-2's config"));
  ATTIC_CHECK(cfg.is_object(), path, ": not a JSON object");
  const json::Value& type = key_of(cfg, "model_type", path);
  ATTIC_CHECK(type.is_string() && type.as_string() == "gpt2", path, ": model_type is ", json::dump(type),
              ", not \"gpt2\"");
  auto positive = [&](const char* key) {
    const json::Value& v = key_of(cfg, key, path);
    ATTIC_CHECK(v.is_int() && v.as_int() > 0 && v.as_int() <= (int64_t(1) << 31), path, ": ", key,
                " must be a positive integer, got ", json::dump(v));
    return v.as_int();
  };
  GPTConfig c;
  c.n_layer = positive("n_layer");
  c.n_head = positive("n_head");
  c.n_embd = positive("n_embd");
  c.block_size = positive("n_positions");
  c.vocab_size = positive("vocab_size");
  c.bias = true;
  c.dropout = 0.0;
  const json::Value& act = key_of(cfg, "activation_function", path);
  ATTIC_CHECK(act.is_string(), path, ": activation_function must be a string");
  // transformers' names: gelu_new and gelu_pytorch_tanh are GPT-2's tanh form, gelu the exact one.
  if (act.as_string() == "gelu_new" || act.as_string() == "gelu_pytorch_tanh")
    c.gelu = "tanh";
  else if (act.as_string() == "gelu")
    c.gelu = "none";
  else
    fail(path, ": activation_function '", act.as_string(), "' is not a GELU (gelu_new, gelu_pytorch_tanh or gelu)");
  // What attic's GPT fixes and a GPT-2 config could set otherwise.
  if (const json::Value* v = cfg.find("n_inner"))
    ATTIC_CHECK(v->is_null() || (v->is_int() && v->as_int() == 4 * c.n_embd), path,
                ": n_inner is ", json::dump(*v), "; attic's MLP is 4 * n_embd = ", 4 * c.n_embd, " wide");
  if (const json::Value* v = cfg.find("layer_norm_epsilon"))
    ATTIC_CHECK(v->type() == json::Value::Type::Number && std::abs(v->as_double() - 1e-5) < 1e-12, path,
                ": layer_norm_epsilon is ", json::dump(*v), "; attic's LayerNorm uses 1e-5");
  for (const char* key : {"scale_attn_by_inverse_layer_idx", "reorder_and_upcast_attn", "add_cross_attention"})
    if (const json::Value* v = cfg.find(key))
      ATTIC_CHECK(!v->as_bool(), path, ": ", key, " is true, which attic's GPT does not do");
  if (const json::Value* v = cfg.find("scale_attn_weights"))
    ATTIC_CHECK(v->as_bool(), path, ": scale_attn_weights is false; attic's attention divides by sqrt(hs)");
  if (const json::Value* v = cfg.find("tie_word_embeddings"))
    ATTIC_CHECK(v->as_bool(), path, ": tie_word_embeddings is false; attic's lm_head shares wte's weight");
  for (const Gpt2Size& s : gpt2_sizes())
    if (s.name == name)
      ATTIC_CHECK(c.n_layer == s.n_layer && c.n_head == s.n_head && c.n_embd == s.n_embd, "init_from = ", name,
                  " is ", s.n_layer, " layers, ", s.n_head, " heads, n_embd ", s.n_embd, ", but ", path, " is ",
                  c.n_layer, ", ", c.n_head, ", ", c.n_embd, " (init_from = huggingface takes any shape)");
  c.validate();
  return c;
}

// The four weights that transformers keeps as Conv1D, [in, out].
static bool is_conv1d(const std::string& name) {
  for (const char* end : {".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight"})
    if (name.ends_with(end)) return true;
  return false;
}

nn::StateDict read_gpt2_weights(const std::string& dir, const GPT& model, int64_t n_positions) {
  const GPTConfig& cfg = model.config;
  const std::string path = dir + "/model.safetensors";
  std::error_code ec;
  ATTIC_CHECK(std::filesystem::is_regular_file(path, ec), "gpt2_dir '", dir, "' has no model.safetensors: ",
              download_hint("huggingface"));
  nn::SafetensorsFile file = nn::load_safetensors(path);
  // The shapes the model has, in attic's names, with wpe at the folder's n_positions.
  std::map<std::string, std::vector<int64_t>> want;
  for (const auto& [name, t] : model.state_dict()) want[name] = t.sizes();
  want["transformer.wpe.weight"] = {n_positions, cfg.n_embd};
  nn::StateDict out;
  for (auto& [stored, t] : file.tensors) {
    // OpenAI's files on the Hub name tensors without "transformer."; save_pretrained with it.
    std::string name = stored.rfind("transformer.", 0) == 0 ? stored : "transformer." + stored;
    if (name.ends_with(".attn.bias") || name.ends_with(".attn.masked_bias")) continue;  // the causal mask
    if (stored == "lm_head.weight") name = stored;
    const auto it = want.find(name);
    ATTIC_CHECK(it != want.end(), path, ": tensor '", stored, "' is not part of a GPT-2 of ", cfg.n_layer,
                " layers");
    ATTIC_CHECK(t.dtype() == DType::Float32, path, ": tensor '", stored, "' is ", dtype_name(t.dtype()),
                "; attic reads GPT-2's F32 files");
    Tensor w = is_conv1d(name) ? t.transpose(0, 1).contiguous() : t;
    ATTIC_CHECK(w.sizes() == it->second, path, ": tensor '", stored, "' has shape ", str(t.sizes()),
                ", a GPT-2 of config.json needs ",
                str(is_conv1d(name) ? std::vector<int64_t>{it->second[1], it->second[0]} : it->second));
    out[name] = w;
  }
  if (const auto head = out.find("lm_head.weight"); head != out.end()) {
    const auto wte = out.find("transformer.wte.weight");
    ATTIC_CHECK(wte != out.end() && max(abs(head->second - wte->second)).item<float>() == 0.0f, path,
                ": lm_head.weight differs from wte.weight; attic's GPT ties them");
  } else if (out.count("transformer.wte.weight")) {
    out["lm_head.weight"] = out.at("transformer.wte.weight");
  }
  for (const auto& [name, shape] : want)
    ATTIC_CHECK(out.count(name), path, ": no tensor '", name.substr(name.rfind("lm_head", 0) == 0 ? 0 : 12),
                "' (", str(shape), ")");
  if (cfg.block_size < n_positions)
    out["transformer.wpe.weight"] = out.at("transformer.wpe.weight").narrow(0, 0, cfg.block_size).contiguous();
  return out;
}

std::unique_ptr<GPT> load_gpt2(const std::string& dir, const std::string& name, int64_t block_size,
                               double dropout) {
  GPTConfig cfg = read_gpt2_config(dir, name);
  cfg.dropout = dropout;
  const int64_t n_positions = cfg.block_size;
  ATTIC_CHECK(block_size >= 0 && block_size <= n_positions, "block_size ", block_size, " is more than GPT-2's ",
              n_positions, " positions (", dir, "/config.json)");
  if (block_size > 0) cfg.block_size = block_size;
  auto model = std::make_unique<GPT>(cfg);
  model->load_state_dict(read_gpt2_weights(dir, *model, n_positions));
  model->eval();
  return model;
}

BpeTokenizer read_gpt2_tokenizer(const std::string& dir) {
  std::error_code ec;
  for (auto [vocab, merges] : {std::pair{"vocab.json", "merges.txt"}, std::pair{"encoder.json", "vocab.bpe"}})
    if (std::filesystem::is_regular_file(dir + "/" + vocab, ec) && std::filesystem::is_regular_file(dir + "/" + merges, ec))
      return BpeTokenizer::from_gpt2_files(dir + "/" + vocab, dir + "/" + merges);
  fail("gpt2_dir '", dir, "' has no tokenizer (vocab.json and merges.txt, or encoder.json and vocab.bpe): ",
       download_hint("huggingface"));
}

void save_gpt2(const GPT& model, const std::string& dir) {
  const GPTConfig& c = model.config;
  ATTIC_CHECK(c.bias && c.attention == "softmax", "save_gpt2: GPT-2 has biases and softmax attention; this GPT ",
              c.bias ? "" : "has no biases", c.bias ? "has attention " + c.attention : "");
  std::filesystem::create_directories(dir);
  nn::StateDict out;
  for (const auto& [name, t] : model.state_dict()) {
    if (name == "lm_head.weight") continue;  // tied to wte.weight, as transformers saves it
    out[name] = is_conv1d(name) ? t.to(Device::CPU).transpose(0, 1).contiguous() : t;
  }
  nn::save_safetensors(dir + "/model.safetensors", out, {{"format", "pt"}});
  json::Value::Object cfg = {
      {"model_type", "gpt2"},
      {"architectures", json::Value::Array{"GPT2LMHeadModel"}},
      {"n_layer", c.n_layer},
      {"n_head", c.n_head},
      {"n_embd", c.n_embd},
      {"n_positions", c.block_size},
      {"n_ctx", c.block_size},
      {"vocab_size", c.vocab_size},
      {"n_inner", nullptr},
      {"activation_function", c.gelu == "tanh" ? "gelu_new" : "gelu"},
      {"layer_norm_epsilon", 1e-5},
      {"resid_pdrop", c.dropout},
      {"embd_pdrop", c.dropout},
      {"attn_pdrop", c.dropout},
      {"scale_attn_weights", true},
      {"tie_word_embeddings", true},
      {"bos_token_id", c.vocab_size - 1},
      {"eos_token_id", c.vocab_size - 1},
  };
  util::write_file_atomic(dir + "/config.json", json::dump(json::Value(cfg)) + "\n");
}

}  // namespace attic::models
