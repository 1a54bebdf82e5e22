// attic's GPT-2 against Hugging Face's: tests/models/fixtures/gpt2_tiny/ is a GPT-2 of 2 layers,
// 2 heads, width 64 and 320 tokens at random init, as transformers' save_pretrained wrote it,
// and expected.safetensors what GPT2LMHeadModel computed from it (bench/peer/make_gpt2_fixture.py).
// attic reads the folder as `--init_from=huggingface --gpt2_dir=...` does and must compute the
// same logits, loss, every gradient and greedy continuation.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "helpers.h"
#include "models/gpt/gpt2_folder.h"
#include "nn/safetensors.h"
#include "util/files.h"
#include "util/json.h"

using namespace attic;
using Catch::Matchers::ContainsSubstring;

namespace {

const std::string kDir = std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/gpt2_tiny";

nn::SafetensorsFile expected() { return nn::load_safetensors(kDir + "/expected.safetensors"); }

double max_abs_diff(const Tensor& a, const Tensor& b) {
  const std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  REQUIRE(x.size() == y.size());
  double d = 0;
  for (size_t i = 0; i < x.size(); ++i) d = std::max(d, std::abs(x[i] - y[i]));
  return d;
}

bool is_conv1d(const std::string& name) {
  for (const char* w : {"attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight"})
    if (name.find(w) != std::string::npos) return true;
  return false;
}

std::string scratch(const std::string& name) {
  const std::string d = (std::filesystem::temp_directory_path() / ("attic-gpt2-" + name)).string();
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("GPT-2's config.json gives attic's GPT config", "[gpt2]") {
  const models::GPTConfig c = models::read_gpt2_config(kDir, "huggingface");
  CHECK(c.n_layer == 2);
  CHECK(c.n_head == 2);
  CHECK(c.n_embd == 64);
  CHECK(c.block_size == 128);
  CHECK(c.vocab_size == 320);
  CHECK(c.bias);
  CHECK(c.gelu == "tanh");
  // The folder is no 124M model.
  CHECK_THROWS_WITH(models::read_gpt2_config(kDir, "gpt2"), ContainsSubstring("init_from = huggingface takes any shape"));
}

TEST_CASE("GPT-2's logits and loss equal transformers'", "[gpt2][transformers]") {
  const nn::SafetensorsFile f = expected();
  auto m = models::load_gpt2(kDir, "huggingface");
  const auto out = m->forward(f.tensors.at("idx"), f.tensors.at("targets"));
  // 1e-6: the exact GELU in place of GPT-2's tanh form would be 1e-5 away at this init.
  CHECK(max_abs_diff(out.logits, f.tensors.at("logits")) < 1e-6);
  CHECK(std::abs(out.loss.item<double>() - f.tensors.at("loss").item<double>()) < 1e-5);
}

TEST_CASE("GPT-2's gradients equal transformers'", "[gpt2][transformers]") {
  const nn::SafetensorsFile f = expected();
  auto m = models::load_gpt2(kDir, "huggingface");
  m->forward(f.tensors.at("idx"), f.tensors.at("targets")).loss.backward();
  std::map<std::string, Tensor> params;
  for (const auto& [n, p] : m->named_parameters()) params[n] = p;
  int checked = 0;
  for (const auto& [key, g] : f.tensors) {
    if (key.rfind("grad.", 0) != 0) continue;
    const std::string name = key.substr(5);
    INFO(name);
    const Tensor mine = params.at(name).grad();
    // wte's gradient in attic sums the embedding's and the tied lm_head's, as PyTorch's does.
    CHECK(max_abs_diff(is_conv1d(name) ? mine.transpose(0, 1).contiguous() : mine, g) < 1e-4);
    ++checked;
  }
  CHECK(checked == 28);  // 12 per block, wte, wpe and ln_f's two
}

TEST_CASE("GPT-2's greedy generation equals transformers', with and without the KV cache", "[gpt2][transformers]") {
  const nn::SafetensorsFile f = expected();
  auto m = models::load_gpt2(kDir, "huggingface");
  const Tensor prompt = f.tensors.at("prompt");
  const std::vector<int64_t> want = f.tensors.at("greedy.cache").to_vector<int64_t>();
  for (bool cache : {true, false}) {
    INFO("use_cache " << cache);
    CHECK(m->generate(prompt, 24, /*temperature=*/0, 0, nullptr, cache).to_vector<int64_t>() == want);
  }
  CHECK(f.tensors.at("greedy.nocache").to_vector<int64_t>() == want);
}

TEST_CASE("a GPT-2 saved by attic is the folder it was read from", "[gpt2]") {
  auto m = models::load_gpt2(kDir, "huggingface");
  const std::string out = scratch("roundtrip");
  models::save_gpt2(*m, out);
  const nn::SafetensorsFile a = nn::load_safetensors(kDir + "/model.safetensors");
  const nn::SafetensorsFile b = nn::load_safetensors(out + "/model.safetensors");
  REQUIRE(a.tensors.size() == b.tensors.size());
  for (const auto& [name, t] : a.tensors) {
    INFO(name);
    REQUIRE(b.tensors.count(name));
    CHECK(b.tensors.at(name).sizes() == t.sizes());
    CHECK(max_abs_diff(b.tensors.at(name), t) == 0);
  }
  const models::GPTConfig c = models::read_gpt2_config(out, "huggingface");
  CHECK(c.n_layer == 2);
  CHECK(c.gelu == "tanh");
  std::filesystem::remove_all(out);
}

TEST_CASE("GPT-2 124M's names and shapes load, with nanoGPT's parameter count", "[gpt2]") {
  // gpt2_124m_names.json: every tensor GPT2LMHeadModel(GPT2Config()).save_pretrained writes,
  // with its shape. Random weights of those shapes, written here, stand in for OpenAI's.
  const json::Value names = json::parse(util::read_text_file(kDir + "/gpt2_124m_names.json", "the fixture"));
  const std::string dir = scratch("124m");
  nn::StateDict tensors;
  for (const auto& [name, shape] : names.at("tensors").as_object()) {
    std::vector<int64_t> s;
    for (const json::Value& d : shape.as_array()) s.push_back(d.as_int());
    tensors[name] = full(s, 0.01f);
  }
  nn::save_safetensors(dir + "/model.safetensors", tensors);
  json::Value::Object cfg = names.at("config").as_object();
  cfg["model_type"] = "gpt2";
  {
    std::ofstream(dir + "/config.json") << json::dump(json::Value(cfg));
  }
  auto m = models::load_gpt2(dir, "gpt2");
  int64_t total = 0;
  for (const auto& [n, p] : m->named_parameters())
    if (n != "lm_head.weight") total += p.numel();
  CHECK(total == names.at("parameters").as_int());  // 124,439,808
  CHECK(m->num_params_non_embedding() == 123653376);  // nanoGPT: "number of parameters: 123.65M"
  // Cropped to nanoGPT's crop_block_size(256): wpe keeps its first 256 rows.
  auto cropped = models::load_gpt2(dir, "gpt2", 256);
  CHECK(cropped->config.block_size == 256);
  CHECK(cropped->wpe->weight.sizes() == std::vector<int64_t>{256, 768});
  // A tensor missing, or of the wrong shape, is named.
  tensors.erase("transformer.h.3.mlp.c_fc.bias");
  nn::save_safetensors(dir + "/model.safetensors", tensors);
  CHECK_THROWS_WITH(models::load_gpt2(dir, "gpt2"), ContainsSubstring("h.3.mlp.c_fc.bias"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("a missing or wrong GPT-2 folder says what to download", "[gpt2]") {
  CHECK_THROWS_WITH(models::load_gpt2("", "gpt2"), ContainsSubstring("openai-community/gpt2"));
  CHECK_THROWS_WITH(models::load_gpt2("/nonexistent/gpt2", "gpt2-xl"),
                    ContainsSubstring("openai-community/gpt2-xl"));
  const std::string dir = scratch("empty");
  CHECK_THROWS_WITH(models::load_gpt2(dir, "gpt2-medium"), ContainsSubstring("has no config.json"));
  std::filesystem::copy_file(kDir + "/config.json", dir + "/config.json");
  CHECK_THROWS_WITH(models::load_gpt2(dir, "huggingface"), ContainsSubstring("has no model.safetensors"));
  CHECK_THROWS_WITH(models::load_gpt2(dir, "gpt3"), ContainsSubstring("is not a GPT-2"));
  std::filesystem::remove_all(dir);
}
