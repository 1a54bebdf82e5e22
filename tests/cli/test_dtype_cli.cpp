// nanoGPT's dtype key from the command line: training, resuming, sampling and evaluating with
// --dtype=bfloat16 (the products under autocast, autograd/autocast_mode.h), float32 checkpoints, and the
// dtypes refused in one line.
#include <filesystem>

#include "catch.h"
#include "cli/cli_helpers.h"
#include "nn/safetensors.h"
#include "train/checkpoint.h"

using namespace attic;
using namespace attic::testing;
using Catch::Matchers::ContainsSubstring;

namespace {

// The "iter N: loss X" lines of a run's output, without their times.
std::vector<std::string> losses(const std::string& out) {
  std::vector<std::string> v;
  for (const std::string& line : lines_matching(out, "^iter [0-9]+: loss "))
    v.push_back(line.substr(0, line.find(", time")));
  return v;
}

}  // namespace

TEST_CASE("train --dtype=bfloat16 trains, keeps float32 weights, and resumes exactly", "[cli][dtype]") {
  Scratch s;
  const Run bf = attic_run("train " + s.tiny("bf") + " --dtype=bfloat16 --max_iters=6 --eval_interval=3");
  INFO(bf.out);
  REQUIRE(bf.code == 0);
  const Run f32 = attic_run("train " + s.tiny("f32") + " --max_iters=6 --eval_interval=3");
  REQUIRE(f32.code == 0);
  const std::vector<std::string> lb = losses(bf.out), lf = losses(f32.out);
  REQUIRE(lb.size() == 7);
  REQUIRE(lf.size() == 7);
  // The run's config, saved in the checkpoint, holds its dtype (which resume and eval read).
  CHECK_THAT(train::read_checkpoint_info(s.path("bf")).config, ContainsSubstring("dtype = \"bfloat16\""));
  // The checkpoint's weights are float32 (the master copy), as nanoGPT's are.
  const nn::SafetensorsFile ck = nn::load_safetensors(train::model_path(s.path("bf")));
  for (const auto& [name, t] : ck.tensors) {
    INFO(name);
    CHECK(t.dtype() == kFloat32);
  }
  // Resumed at 3, it continues as the uninterrupted run did (the dtype comes from the
  // checkpoint's config).
  const Run first = attic_run("train " + s.tiny("r") + " --dtype=bfloat16 --max_iters=3 --eval_interval=3");
  REQUIRE(first.code == 0);
  const Run rest = attic_run("train --init_from=resume --out_dir=" + s.path("r") + " --max_iters=6");
  INFO(rest.out);
  REQUIRE(rest.code == 0);
  const std::vector<std::string> lr = losses(rest.out);
  REQUIRE(lr.size() >= 3);
  CHECK(std::vector<std::string>(lr.end() - 3, lr.end()) ==
        std::vector<std::string>(lb.end() - 3, lb.end()));
}

TEST_CASE("sample and eval take --dtype, and eval defaults to the checkpoint's", "[cli][dtype]") {
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("out") + " --dtype=bfloat16 --max_iters=4 --eval_interval=4").code == 0);
  const Run smp = attic_run("sample --out_dir=" + s.path("out") +
                            " --start=\"To be\" --num_samples=1 --max_new_tokens=8 --dtype=bfloat16");
  INFO(smp.out);
  CHECK(smp.code == 0);
  // The sample follows the notes (on a CPU without bf16 instructions, the convert path's).
  std::string text = smp.out;
  while (text.rfind("note: ", 0) == 0) text.erase(0, text.find('\n') + 1);
  CHECK(text.rfind("To be", 0) == 0);
  const Run ev_ckpt = attic_run("eval --out_dir=" + s.path("out"));
  const Run ev_bf = attic_run("eval --out_dir=" + s.path("out") + " --dtype=bfloat16");
  const Run ev_f32 = attic_run("eval --out_dir=" + s.path("out") + " --dtype=float32");
  INFO(ev_ckpt.out << ev_f32.out);
  REQUIRE(ev_ckpt.code == 0);
  REQUIRE(ev_f32.code == 0);
  const auto val = [](const Run& r) { return lines_matching(r.out, "val loss"); };
  CHECK(val(ev_ckpt).size() == 1);
  CHECK(val(ev_ckpt) == val(ev_bf));  // the same computation, so the same printed loss
}

TEST_CASE("without AVX512_BF16, a bfloat16 run says that it takes the slower path", "[cli][dtype]") {
  Scratch s;
  // ATTIC_CPU_CAPABILITY=baseline holds any CPU to the convert path, as a CPU without the
  // instructions takes it.
  const Run r = shell_run("ATTIC_CPU_CAPABILITY=baseline " + attic_command() + " train " + s.tiny("out") +
                          " --dtype=bfloat16 --max_iters=1 2>&1");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(lines_matching(r.out, "^note: dtype = bfloat16 on a CPU without AVX512_BF16 or NEON BF16 \\(baseline \\(of ").size() == 1);
  const Run f32 = attic_run("train " + s.tiny("out2") + " --max_iters=1");
  CHECK(lines_matching(f32.out, "^note: dtype").empty());
}

TEST_CASE("dtypes attic cannot run are refused in one line", "[cli][dtype][errors]") {
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("out") + " --max_iters=2 --eval_interval=2").code == 0);
  check_one_line(attic_run("sample --out_dir=" + s.path("out") + " --dtype=float16"),
                 "sample: dtype = float16 runs on cuda only: the CPU has no float16 products (give dtype = "
                 "bfloat16 or float32)");
  check_one_line(attic_run("sample --out_dir=" + s.path("out") + " --dtype=bf16"),
                 "sample: dtype = 'bf16': not a dtype attic trains in (float32, bfloat16, float16)");
  check_one_line(attic_run("train " + s.tiny("no") + " --dtype=half"),
                 "dtype = 'half': not a dtype attic trains in (float32, bfloat16, float16)");
  check_one_line(attic_run("eval --out_dir=" + s.path("out") + " --dtype=float16"),
                 "dtype = float16: attic trains and evaluates in float32 or bfloat16. float16 training needs a "
                 "loss scaler "
                 "(nanoGPT's GradScaler), which attic does not have, and the CPU has no float16 products; "
                 "bfloat16 has float32's range and needs none");
  CHECK_FALSE(fs::exists(s.path("no")));
}
