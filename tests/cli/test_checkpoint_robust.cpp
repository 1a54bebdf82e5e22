// Corrupted checkpoints through `attic eval` and `attic train --init_from=resume`: each one
// is refused with exit 2 and one "attic: " line naming the file that is wrong, and none
// crashes. The corpus cuts files short, edits bytes of the header and the data, edits the
// metadata and every config key, and swaps, damages or replaces the optimizer's state; a
// file rewritten without its checksum stands for an older checkpoint or one converted from
// nanoGPT, which the checks of what the file means must catch by themselves.
//
// Run the executable alone to see the tally (accepted, crashed, unnamed of N).
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_helpers.h"
#include "devices.h"
#include "nn/safetensors.h"
#include "ops/ops.h"
#include "tensor/tensor.h"

namespace fs = std::filesystem;
using namespace attic;
using namespace attic::testing;

namespace {

using Meta = std::map<std::string, std::string>;

// A command through the shell with a memory cap and a time limit, so that a checkpoint that
// makes attic build an enormous model shows up as a failure of this test, not of the machine.
Run guarded_run(const std::string& args) {
#ifdef ATTIC_ASAN  // tensor/asan.h: GCC's and clang's AddressSanitizer alike
  const std::string cap = "";  // AddressSanitizer reserves more address space than any cap
#else
  const std::string cap = "ulimit -v 4000000; ";
#endif
  return shell_run("(" + cap + "exec timeout 60 " + attic_command() + " " + args + ") 2>&1");
}

// The whole file, and the whole file replaced.
std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The header of a safetensors file (after its 8-byte length) and where it ends.
size_t header_end(const std::string& bytes) {
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = n << 8 | uint8_t(bytes[size_t(i)]);
  return size_t(8 + n);
}

// Replaces the first `from` in the header by `to` (the same length, so every offset holds).
void edit_header(const std::string& path, const std::string& from, const std::string& to) {
  std::string b = read_bytes(path);
  const size_t end = header_end(b);
  const size_t at = b.find(from, 8);
  REQUIRE(at != std::string::npos);
  REQUIRE(at + from.size() <= end);
  b.replace(at, from.size(), to);
  // A longer or shorter text shifts the buffer: the length in front follows the header.
  if (to.size() != from.size()) {
    const uint64_t n = uint64_t(end - 8 + to.size() - from.size());
    for (int i = 0; i < 8; ++i) b[size_t(i)] = char((n >> (8 * i)) & 0xFF);
  }
  write_bytes(path, b);
}

// Flips one bit of the data buffer at `fraction` of its length.
void flip_data_byte(const std::string& path, double fraction) {
  std::string b = read_bytes(path);
  const size_t end = header_end(b);
  const size_t at = end + size_t(double(b.size() - end - 1) * fraction);
  b[at] = char(b[at] ^ 0x10);
  write_bytes(path, b);
}

void truncate_to(const std::string& path, size_t n) { fs::resize_file(path, n); }

// Reads the file, lets `edit` change its metadata and tensors, and writes it back without
// a checksum, as a writer that knows nothing of checksums (an older attic) would: nor does
// the model file then name its optimizer's checksum, which attic writes with its own.
void rewrite(const std::string& path, const std::function<void(Meta&, nn::StateDict&)>& edit) {
  nn::SafetensorsFile f = nn::load_safetensors(path);
  f.metadata.erase("optimizer_fnv1a64");
  edit(f.metadata, f.tensors);
  nn::save_safetensors(path, f.tensors, f.metadata);
}

// The config text with key's line set to `key = value` (or removed when value is null).
std::string with_key(const std::string& config, const std::string& key, const char* value) {
  std::istringstream in(config);
  std::string out;
  bool done = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key + " = ", 0) == 0) {
      done = true;
      if (value) out += key + " = " + value + "\n";
      continue;
    }
    out += line + "\n";
  }
  if (!done && value) out += key + " = " + value + "\n";
  return out;
}

// The name of the first tensor whose name contains `part`.
std::string tensor_named(const nn::StateDict& t, const std::string& part) {
  for (const auto& [name, v] : t)
    if (name.find(part) != std::string::npos) return name;
  FAIL("no tensor named like " << part);
  return "";
}

enum Runs { kEval = 1, kResume = 2, kBoth = 3 };

struct Case {
  std::string name;
  std::string file;  // the file the line must name: ckpt.safetensors or optim.safetensors
  Runs runs;
  std::function<void(const std::string& dir)> corrupt;
};

// What one command did with one case.
struct Outcome {
  std::string case_name, command, verdict, out;  // verdict: ok, accepted, crashed, unnamed
};

std::string verdict(const Run& r, const std::string& file) {
  const bool crashed = r.code != 0 && r.code != 2;
  const bool aborted = r.out.find("terminate called") != std::string::npos ||
                       r.out.find("Segmentation") != std::string::npos;
  if (crashed || aborted) return "crashed";
  if (r.code == 0) return "accepted";
  const std::vector<std::string> lines = lines_matching(r.out, "^attic: ");
  if (lines.size() != 1 || lines[0].find(file) == std::string::npos) return "unnamed";
  return "ok";
}

}  // namespace

TEST_CASE("every corrupted checkpoint of the corpus is refused with one line naming its file",
          "[cli][checkpoint]") {
  Scratch s;
  // A: a run checkpointed at iterations 1 and 2 (A1 keeps the first); B: another seed.
  const std::string flags = " --eval_interval=1 --always_save_checkpoint=true --eval_iters=1";
  REQUIRE(attic_run("train " + s.tiny("A") + flags + " --max_iters=1").code == 0);
  fs::copy(s.path("A"), s.path("A1"), fs::copy_options::recursive);
  REQUIRE(attic_run("train " + s.tiny("A") + flags + " --max_iters=2 --init_from=resume").code == 0);
  REQUIRE(attic_run("train " + s.tiny("B") + flags + " --max_iters=2 --seed=7").code == 0);
  // The base is sound: it evaluates and resumes.
  REQUIRE(guarded_run("eval --out_dir=" + s.path("A")).code == 0);

  const std::string ckpt = "ckpt.safetensors", optim = "optim.safetensors";
  std::vector<Case> cases;
  auto add = [&](const std::string& name, const std::string& file, Runs runs,
                 std::function<void(const std::string&)> f) {
    cases.push_back({name, file, runs, std::move(f)});
  };
  auto at = [](const std::string& dir, const std::string& file) { return dir + "/" + file; };
  const size_t ckpt_size = fs::file_size(at(s.path("A"), ckpt));
  const size_t ckpt_header = header_end(read_bytes(at(s.path("A"), ckpt)));
  const size_t optim_size = fs::file_size(at(s.path("A"), optim));
  const size_t optim_header = header_end(read_bytes(at(s.path("A"), optim)));

  // ---- truncations
  for (size_t n : {size_t(0), size_t(4), size_t(8), size_t(9), ckpt_header / 2, ckpt_header - 1,
                   ckpt_header, ckpt_header + 1, (ckpt_header + ckpt_size) / 2, ckpt_size - 1})
    add("ckpt cut to " + std::to_string(n) + " bytes", ckpt, kBoth,
        [&, n](const std::string& d) { truncate_to(at(d, ckpt), n); });
  for (size_t n : {size_t(0), size_t(8), optim_header / 2, optim_header, optim_size - 1})
    add("optim cut to " + std::to_string(n) + " bytes", optim, kResume,
        [&, n](const std::string& d) { truncate_to(at(d, optim), n); });
  add("ckpt removed", ckpt, kBoth, [&](const std::string& d) { fs::remove(at(d, ckpt)); });
  add("optim removed", optim, kResume, [&](const std::string& d) { fs::remove(at(d, optim)); });

  // ---- bytes changed after writing: only the checksum sees these
  for (double f : {0.0, 0.37, 1.0}) {
    add("ckpt data bit flipped at " + std::to_string(f), ckpt, kBoth,
        [&, f](const std::string& d) { flip_data_byte(at(d, ckpt), f); });
    add("optim data bit flipped at " + std::to_string(f), optim, kResume,
        [&, f](const std::string& d) { flip_data_byte(at(d, optim), f); });
  }
  add("ckpt header: n_head = 2 edited to 1", ckpt, kBoth,
      [&](const std::string& d) { edit_header(at(d, ckpt), "n_head = 2", "n_head = 1"); });
  add("ckpt header: seed edited", ckpt, kBoth,
      [&](const std::string& d) { edit_header(at(d, ckpt), "seed = 1337", "seed = 1338"); });
  add("ckpt header: iter_num 2 edited to 1", ckpt, kBoth,
      [&](const std::string& d) { edit_header(at(d, ckpt), "\"iter_num\":\"2\"", "\"iter_num\":\"1\""); });
  add("ckpt header: learning_rate edited", ckpt, kBoth,
      [&](const std::string& d) { edit_header(at(d, ckpt), "learning_rate = 0.003", "learning_rate = 0.009"); });
  add("ckpt header: vocabulary letters swapped", ckpt, kBoth, [&](const std::string& d) {
    edit_header(at(d, ckpt), "\"vocabulary\":\"\\n ,", "\"vocabulary\":\"\\n, ");
  });
  add("ckpt header: shape [48,16] read as [16,48]", ckpt, kBoth,
      [&](const std::string& d) { edit_header(at(d, ckpt), "\"shape\":[48,16]", "\"shape\":[16,48]"); });
  add("ckpt header: rng word edited", ckpt, kBoth, [&](const std::string& d) {
    const std::string rng = nn::load_safetensors(at(d, ckpt)).metadata.at("rng");
    std::string other = rng;
    other[0] = other[0] == '1' ? '2' : '1';
    edit_header(at(d, ckpt), rng, other);
  });
  add("ckpt header: checksum digits edited", ckpt, kBoth, [&](const std::string& d) {
    const std::string sum = nn::load_safetensors(at(d, ckpt)).metadata.at("fnv1a64");
    std::string other = sum;
    other[3] = other[3] == 'a' ? 'b' : 'a';
    edit_header(at(d, ckpt), sum, other);
  });
  // The file's own checksum gone while it still names its optimizer's: an edit, never an
  // older file to read unchecked (here with zeroed weights, which nothing else would catch).
  add("ckpt checksum entry deleted, the optimizer's kept, weights zeroed", ckpt, kBoth,
      [&](const std::string& d) {
        nn::SafetensorsFile f = nn::load_safetensors(at(d, ckpt));
        for (auto& [name, t] : f.tensors) t = zeros_like(t);
        nn::save_safetensors(at(d, ckpt), f.tensors, f.metadata);  // no checksum of its own
      });
  add("ckpt checksum key renamed, the optimizer's kept", ckpt, kBoth, [&](const std::string& d) {
    nn::SafetensorsFile f = nn::load_safetensors(at(d, ckpt));
    f.metadata["fnv1a6t"] = f.metadata.at("fnv1a64");
    nn::save_safetensors(at(d, ckpt), f.tensors, f.metadata);
  });
  add("ckpt header: checksum not hex", ckpt, kBoth, [&](const std::string& d) {
    const std::string sum = nn::load_safetensors(at(d, ckpt)).metadata.at("fnv1a64");
    edit_header(at(d, ckpt), sum, "zzzzzzzzzzzzzzzz");
  });
  add("optim header: step read as F64", optim, kResume,
      [&](const std::string& d) { edit_header(at(d, optim), "\"dtype\":\"I64\"", "\"dtype\":\"F64\""); });
  add("optim header: iter_num 2 edited to 1", optim, kResume,
      [&](const std::string& d) { edit_header(at(d, optim), "\"iter_num\":\"2\"", "\"iter_num\":\"1\""); });
  add("ckpt header: length field past the end", ckpt, kBoth, [&](const std::string& d) {
    std::string b = read_bytes(at(d, ckpt));
    b[2] = char(0x7f);
    write_bytes(at(d, ckpt), b);
  });
  add("ckpt header: not JSON", ckpt, kBoth, [&](const std::string& d) {
    std::string b = read_bytes(at(d, ckpt));
    b[8] = '[';
    write_bytes(at(d, ckpt), b);
  });
  add("ckpt header: a tensor renamed", ckpt, kBoth, [&](const std::string& d) {
    edit_header(at(d, ckpt), "transformer.h.0.", "transformer.h.7.");
  });
  add("ckpt header: a dtype F32 edited to I64", ckpt, kBoth,
      [&](const std::string& d) { edit_header(at(d, ckpt), "\"dtype\":\"F32\"", "\"dtype\":\"I64\""); });

  // ---- metadata, rewritten without a checksum (as an older checkpoint)
  auto meta_case = [&](const std::string& name, std::function<void(Meta&)> f) {
    add("metadata: " + name, ckpt, kBoth, [&, f](const std::string& d) {
      rewrite(at(d, ckpt), [&](Meta& m, nn::StateDict&) { f(m); });
    });
  };
  auto set = [](const std::string& k, const std::string& v) { return [k, v](Meta& m) { m[k] = v; }; };
  auto drop = [](const std::string& k) { return [k](Meta& m) { m.erase(k); }; };
  for (const char* k : {"format", "config", "vocabulary", "iter_num", "best_val_loss", "rng"})
    meta_case(std::string("no ") + k, drop(k));
  meta_case("format attic-gpt-9", set("format", "attic-gpt-9"));
  meta_case("iter_num abc", set("iter_num", "abc"));
  meta_case("iter_num -1", set("iter_num", "-1"));
  meta_case("iter_num 1e3", set("iter_num", "1e3"));
  meta_case("iter_num past int64", set("iter_num", "99999999999999999999"));
  meta_case("iter_num empty", set("iter_num", ""));
  meta_case("best_val_loss abc", set("best_val_loss", "abc"));
  meta_case("best_val_loss empty", set("best_val_loss", ""));
  meta_case("best_val_loss nan", set("best_val_loss", "nan"));
  meta_case("best_val_loss 2.5junk", set("best_val_loss", "2.5junk"));
  meta_case("best_val_loss -1", set("best_val_loss", "-1"));
  meta_case("rng all zero", set("rng", "0 0 0 0"));
  meta_case("rng three words", set("rng", "1 2 3"));
  meta_case("rng five words", set("rng", "1 2 3 4 5"));
  meta_case("rng negative word", set("rng", "-1 2 3 4"));
  meta_case("rng word past 64 bits", set("rng", "18446744073709551616 1 2 3"));
  meta_case("rng letters", set("rng", "a b c d"));
  meta_case("vocabulary empty", set("vocabulary", ""));
  meta_case("vocabulary with a repeated letter", [](Meta& m) { m["vocabulary"][1] = m["vocabulary"][2]; });
  meta_case("vocabulary one letter short", [](Meta& m) { m["vocabulary"].pop_back(); });
  meta_case("vocabulary one letter more", [](Meta& m) { m["vocabulary"] += "~"; });
  meta_case("attention bogus", set("attention", "bogus"));
  meta_case("attention linear_elu", set("attention", "linear_elu"));
  meta_case("attention_options k=4", set("attention_options", "k=4"));

  // ---- each config key, rewritten without a checksum
  const std::vector<std::pair<const char*, const char*>> config_edits = {
      {"n_layer", "100000000"}, {"n_layer", "2"}, {"n_layer", "0"}, {"n_layer", "-1"},
      {"n_layer", "1.5"}, {"n_layer", "abc"}, {"n_embd", "32"}, {"n_embd", "0"},
      {"n_head", "3"}, {"n_head", "0"},
      {"block_size", "4611686018427387904"}, {"block_size", "32"}, {"block_size", "0"},
      {"model", "\"bogus\""}, {"model", "\"pooled_lm\""}, {"model", "\"elita\""},
      {"attention", "\"bogus\""}, {"attention", "\"linear_elu\""}, {"attention_options", "\"k=4\""},
      {"bias", "true"}, {"bias", "maybe"}, {"dropout", "-1"}, {"dropout", "abc"},
      {"eval_iters", "0"}, {"eval_iters", "-5"}, {"eval_interval", "0"}, {"log_interval", "0"},
      {"batch_size", "0"}, {"gradient_accumulation_steps", "0"}, {"learning_rate", "abc"},
      {"max_iters", "-1"}, {"warmup_iters", "abc"}, {"lr_decay_iters", "0"},
      {"lr_schedule", "\"bogus\""}, {"beta1", "abc"}, {"grad_clip", "-1"},
      {"device", "\"tpu\""}, {"threads", "-1"}, {"seed", "abc"}, {"init_from", "\"bogus\""},
      {"always_save_checkpoint", "maybe"}, {"elita_ff", "0"}, {"elita_numerics", "\"bogus\""},
      {"frobnicate", "1"}};
  for (const auto& [key, value] : config_edits)
    meta_case(std::string("config ") + key + " = " + value, [key = std::string(key), value = value](Meta& m) {
      m["config"] = with_key(m["config"], key, value);
    });
  meta_case("config without n_layer", [](Meta& m) { m["config"] = with_key(m["config"], "n_layer", nullptr); });
  meta_case("config line without =", [](Meta& m) { m["config"] += "this is no setting\n"; });
  meta_case("config with a NUL", [](Meta& m) { m["config"] += std::string("max_iters = 7\0garbage\n", 22); });

  // ---- tensors of the model, rewritten without a checksum
  auto tensor_case = [&](const std::string& name, std::function<void(nn::StateDict&)> f) {
    add("model tensors: " + name, ckpt, kBoth, [&, f](const std::string& d) {
      rewrite(at(d, ckpt), [&](Meta&, nn::StateDict& t) { f(t); });
    });
  };
  tensor_case("lm_head differs from its tied wte", [](nn::StateDict& t) {
    t["lm_head.weight"] = t.at("transformer.wte.weight") + 1.0;
  });
  tensor_case("a NaN in a weight", [](nn::StateDict& t) {
    Tensor w = t.at(tensor_named(t, "c_attn.weight")).clone();
    static_cast<float*>(w.raw_data())[3] = std::numeric_limits<float>::quiet_NaN();
    t[tensor_named(t, "c_attn.weight")] = w;
  });
  tensor_case("an Inf in a weight", [](nn::StateDict& t) {
    Tensor w = t.at(tensor_named(t, "mlp.c_fc.weight")).clone();
    static_cast<float*>(w.raw_data())[0] = std::numeric_limits<float>::infinity();
    t[tensor_named(t, "mlp.c_fc.weight")] = w;
  });
  tensor_case("a tensor missing", [](nn::StateDict& t) { t.erase(tensor_named(t, "ln_f")); });
  tensor_case("an extra tensor", [](nn::StateDict& t) { t["transformer.extra"] = ones({2}); });
  tensor_case("a tensor reshaped", [](nn::StateDict& t) {
    const std::string n = tensor_named(t, "c_attn.weight");
    t[n] = t.at(n).reshape({-1}).contiguous();
  });
  tensor_case("a tensor as F64", [](nn::StateDict& t) {
    const std::string n = tensor_named(t, "c_proj.weight");
    t[n] = t.at(n).to(kFloat64);
  });
  tensor_case("wte with one row less", [](nn::StateDict& t) {
    Tensor w = t.at("transformer.wte.weight");
    t["transformer.wte.weight"] = w.narrow(0, 0, w.size(0) - 1).contiguous();
    t.erase("lm_head.weight");
  });

  // ---- the optimizer's state, rewritten without a checksum
  auto optim_case = [&](const std::string& name, std::function<void(Meta&, nn::StateDict&)> f) {
    add("optimizer: " + name, optim, kResume, [&, f](const std::string& d) { rewrite(at(d, optim), f); });
  };
  auto step_is = [](Tensor v) {
    return [v](Meta&, nn::StateDict& t) { t["state.0.step"] = v; };
  };
  optim_case("step 1e300", step_is(scalar_tensor(1e300, kFloat64)));
  optim_case("step INT64_MAX", [](Meta&, nn::StateDict& t) {
    Tensor v = t.at("state.0.step").clone();
    *static_cast<int64_t*>(v.raw_data()) = std::numeric_limits<int64_t>::max();
    t["state.0.step"] = v;
  });
  optim_case("step -1", step_is(scalar_tensor(-1, kInt64)));
  optim_case("step 0", step_is(scalar_tensor(0, kInt64)));
  optim_case("step 2.5", step_is(scalar_tensor(2.5, kFloat64)));
  optim_case("step past the iteration", step_is(scalar_tensor(3, kInt64)));
  optim_case("step missing", [](Meta&, nn::StateDict& t) { t.erase("state.0.step"); });
  optim_case("exp_avg holds NaN", [](Meta&, nn::StateDict& t) {
    Tensor v = t.at("state.0.exp_avg").clone();
    static_cast<float*>(v.raw_data())[0] = std::numeric_limits<float>::quiet_NaN();
    t["state.0.exp_avg"] = v;
  });
  optim_case("exp_avg_sq negative", [](Meta&, nn::StateDict& t) {
    t["state.0.exp_avg_sq"] = t.at("state.0.exp_avg_sq") - 1.0;
  });
  optim_case("exp_avg reshaped", [](Meta&, nn::StateDict& t) {
    t["state.0.exp_avg"] = t.at("state.0.exp_avg").reshape({-1}).contiguous();
  });
  optim_case("exp_avg as F64", [](Meta&, nn::StateDict& t) {
    t["state.0.exp_avg"] = t.at("state.0.exp_avg").to(kFloat64);
  });
  optim_case("exp_avg_sq missing", [](Meta&, nn::StateDict& t) { t.erase("state.1.exp_avg_sq"); });
  optim_case("an extra key", [](Meta&, nn::StateDict& t) { t["state.0.momentum"] = ones({1}); });
  optim_case("num_params wrong", [](Meta&, nn::StateDict& t) {
    t["group.0.num_params"] = scalar_tensor(1, kInt64);
  });
  optim_case("lr negative", [](Meta&, nn::StateDict& t) { t["group.0.lr"] = scalar_tensor(-1, kFloat64); });
  optim_case("weight_decay NaN", [](Meta&, nn::StateDict& t) {
    t["group.0.weight_decay"] = scalar_tensor(std::nan(""), kFloat64);
  });
  optim_case("weight_decay 1e300", [](Meta&, nn::StateDict& t) {
    t["group.0.weight_decay"] = scalar_tensor(1e300, kFloat64);
  });
  optim_case("lr 1e300", [](Meta&, nn::StateDict& t) { t["group.1.lr"] = scalar_tensor(1e300, kFloat64); });
  optim_case("iter_num 1", [](Meta& m, nn::StateDict&) { m["iter_num"] = "1"; });
  optim_case("no iter_num", [](Meta& m, nn::StateDict&) { m.erase("iter_num"); });
  optim_case("iter_num abc", [](Meta& m, nn::StateDict&) { m["iter_num"] = "abc"; });
  add("optimizer of another run at the same iteration", optim, kResume, [&](const std::string& d) {
    fs::copy_file(at(s.path("B"), optim), at(d, optim), fs::copy_options::overwrite_existing);
  });
  add("optimizer of an earlier iteration", optim, kResume, [&](const std::string& d) {
    fs::copy_file(at(s.path("A1"), optim), at(d, optim), fs::copy_options::overwrite_existing);
  });
  add("optimizer of an earlier iteration, iter_num edited to match", optim, kResume, [&](const std::string& d) {
    fs::copy_file(at(s.path("A1"), optim), at(d, optim), fs::copy_options::overwrite_existing);
    rewrite(at(d, optim), [](Meta& m, nn::StateDict&) { m["iter_num"] = "2"; });
  });

  // ---- run them, a few at a time
  std::vector<std::function<Outcome()>> jobs;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const std::string dir = s.path("case" + std::to_string(i));
    fs::copy(s.path("A"), dir, fs::copy_options::recursive);
    try {
      c.corrupt(dir);
    } catch (const std::exception& e) {  // e.g. a file without the checksum to edit
      jobs.push_back([&c, what = std::string(e.what())] {
        return Outcome{c.name, "corrupt", "not made", what + "\n"};
      });
      continue;
    }
    // A refusal leaves the folder as it was, byte for byte.
    auto judged = [&c](const Run& r, const std::map<std::string, std::string>& before, const std::string& d) {
      const std::string v = verdict(r, c.file);
      return v == "ok" && dir_snapshot(d) != before ? std::string("changed") : v;
    };
    if (c.runs & kEval)
      jobs.push_back([&c, dir, judged] {
        const auto before = dir_snapshot(dir);
        const Run r = guarded_run("eval --out_dir=" + dir);
        return Outcome{c.name, "eval", judged(r, before, dir), r.out};
      });
    if (c.runs & kResume)
      jobs.push_back([&c, dir, judged] {
        // A copy per command: a resume that goes through writes its own checkpoint.
        const std::string mine = dir + "-resume";
        fs::copy(dir, mine, fs::copy_options::recursive);
        const auto before = dir_snapshot(mine);
        const Run r = guarded_run("train --init_from=resume --max_iters=3 --out_dir=" + mine);
        return Outcome{c.name, "resume", judged(r, before, mine), r.out};
      });
  }
  std::vector<Outcome> outcomes;
  for (size_t i = 0; i < jobs.size(); i += 4) {
    std::vector<std::future<Outcome>> batch;
    for (size_t j = i; j < std::min(jobs.size(), i + 4); ++j)
      batch.push_back(std::async(std::launch::async, jobs[j]));
    for (auto& f : batch) outcomes.push_back(f.get());
  }

  std::map<std::string, int> tally;
  for (const Outcome& o : outcomes) {
    ++tally[o.verdict];
    if (o.verdict != "ok")
      std::cout << o.verdict << ": " << o.case_name << " (" << o.command << "): "
                << o.out.substr(o.out.rfind('\n', o.out.size() - 2) + 1);
  }
  std::cout << "corpus: " << cases.size() << " checkpoints, " << outcomes.size() << " runs: "
            << tally["accepted"] << " accepted, " << tally["crashed"] << " crashed, "
            << tally["unnamed"] << " unnamed, " << tally["changed"] << " refused but changed their folder, "
            << tally["ok"] << " refused by name\n";
  for (const Outcome& o : outcomes) {
    INFO(o.case_name << " (" << o.command << "):\n" << o.out);
    CHECK(o.verdict == "ok");
  }
}

TEST_CASE("a save stopped between its commit and its last rename resumes from the new pair",
          "[cli][checkpoint]") {
  Scratch s;
  const std::string flags = " --eval_interval=1 --always_save_checkpoint=true --eval_iters=1";
  REQUIRE(attic_run("train " + s.tiny("old") + flags + " --max_iters=1").code == 0);
  REQUIRE(attic_run("train " + s.tiny("new") + flags + " --max_iters=2").code == 0);
  // Killed after step 2: ckpt.safetensors is iteration 2's, whose optimizer is still
  // optim.safetensors.next, and optim.safetensors is iteration 1's.
  const std::string dir = s.path("new");
  fs::rename(dir + "/optim.safetensors", dir + "/optim.safetensors.next");
  fs::copy_file(s.path("old") + "/optim.safetensors", dir + "/optim.safetensors");
  Run r = attic_run("train --init_from=resume --max_iters=3 --out_dir=" + dir);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(lines_matching(r.out, "^resuming from .* at iteration 2$").size() == 1);
  CHECK_FALSE(fs::exists(dir + "/optim.safetensors.next"));

  // Killed while writing step 1's file: the old pair stands, the torn file is ignored.
  write_bytes(dir + "/optim.safetensors.next", "torn");
  r = attic_run("train --init_from=resume --max_iters=4 --out_dir=" + dir);
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(lines_matching(r.out, "^resuming from .* at iteration 3$").size() == 1);
}

TEST_CASE("reset_optimizer = true resumes from the model alone", "[cli][checkpoint]") {
  Scratch s;
  const std::string flags = " --eval_interval=1 --always_save_checkpoint=true --eval_iters=1";
  REQUIRE(attic_run("train " + s.tiny("out") + flags + " --max_iters=2").code == 0);
  fs::remove(s.path("out/optim.safetensors"));
  Run r = attic_run("train --init_from=resume --max_iters=3 --out_dir=" + s.path("out"));
  CHECK(r.code == 2);
  r = attic_run("train --init_from=resume --max_iters=3 --reset_optimizer=true --out_dir=" + s.path("out"));
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(lines_matching(r.out, "^resuming from .* at iteration 2$").size() == 1);
  // It acts once: the checkpoint it wrote resumes with its own optimizer state.
  r = attic_run("train --init_from=resume --max_iters=4 --out_dir=" + s.path("out"));
  CHECK(r.code == 0);
  CHECK(lines_matching(r.out, "^reset_optimizer").empty());
  check_one_line(attic_run("train " + s.tiny("other") + " --reset_optimizer=true --max_iters=1"),
                 "reset_optimizer = true needs init_from = resume (a new run has a new optimizer anyway)");
}

TEST_CASE("a second training into the same out_dir fails at once naming the first", "[cli][checkpoint]") {
  Scratch s;
  fs::create_directories(s.path("out"));
  const std::string lock = s.path("out/train.lock");
  {
    // A lock file left by a process that is gone holds no lock: it does not block.
    write_bytes(lock, "999999999\n");
    CHECK(attic_run("train " + s.tiny("out") + " --max_iters=1 --eval_interval=1").code == 0);
  }
  // This process holds the lock, as a running attic train would.
  const int fd = ::open(lock.c_str(), O_RDWR);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
  write_bytes(lock, std::to_string(::getpid()) + "\n");
  Run r = attic_run("train " + s.tiny("out") + " --max_iters=1");
  check_one_line(r, "out_dir '" + s.path("out") + "' is in use by another process (pid " +
                        std::to_string(::getpid()) + " holds '" + lock + "')");
  r = attic_run("train --init_from=resume --max_iters=2 --out_dir=" + s.path("out"));
  CHECK(r.code == 2);
  // Readers take no lock.
  CHECK(attic_run("eval --out_dir=" + s.path("out")).code == 0);
  CHECK(attic_run("sample --out_dir=" + s.path("out") + " --max_new_tokens=5 --num_samples=1").code == 0);
  ::close(fd);
  CHECK(attic_run("train --init_from=resume --max_iters=2 --out_dir=" + s.path("out")).code == 0);
}

TEST_CASE("two attic trains into one out_dir: the second fails while the first saves, readers read",
          "[cli][checkpoint]") {
  Scratch s;
  const std::string out = s.path("out");
  // The first saves at every iteration for far longer than this test waits.
  const std::string pid_file = s.path("first.pid");
  REQUIRE(std::system(("(" + attic_command() + " train " + s.tiny("out") +
                       " --eval_interval=1 --always_save_checkpoint=true --eval_iters=1"
                       " --max_iters=1000000 > " + s.path("first.log") + " 2>&1 & echo $! > " +
                       pid_file + ")").c_str()) == 0);
  const std::string first = [&] {
    std::string p = read_bytes(pid_file);
    return p.substr(0, p.find('\n'));
  }();
  REQUIRE_FALSE(first.empty());
  // Killed however the test ends, a failed REQUIRE included.
  struct KillOnExit {
    pid_t pid;
    ~KillOnExit() {
      ::kill(pid, SIGKILL);
      for (int i = 0; i < 100 && ::kill(pid, 0) == 0; ++i) ::usleep(20000);
    }
  } const guard{pid_t(std::stol(first))};
  // Once its first checkpoint is there, it holds the lock.
  for (int i = 0; i < 600 && !fs::exists(out + "/ckpt.safetensors"); ++i) ::usleep(50000);
  REQUIRE(fs::exists(out + "/ckpt.safetensors"));
  Run second = attic_run("train " + s.tiny("out") + " --max_iters=1");
  const bool first_alive = ::kill(guard.pid, 0) == 0;
  int read_ok = 0;
  for (int i = 0; i < 5; ++i) read_ok += attic_run("eval --out_dir=" + out).code == 0;
  INFO(second.out << read_bytes(s.path("first.log")).substr(0, 2000));
  REQUIRE(first_alive);
  check_one_line(second, "out_dir '" + out + "' is in use by another process (pid " + first +
                             " holds '" + out + "/train.lock')");
  CHECK(read_ok == 5);
}
