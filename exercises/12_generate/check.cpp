// The check of chapter 12's exercise: my_generate against GPT::generate, token for token,
// with two generators of the same seed.
#include "tests/catch.h"

#include "data/data.h"
#include "generate.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

// An untrained GPT over Shakespeare's 65 characters with block_size 16, and the prompt
// "ROMEO:" [1, 6]. 40 new tokens make the text longer than block_size, so the crop matters.
struct Setup {
  TextDataset ds = TextDataset::from_file(default_dataset_path());
  std::unique_ptr<models::GPT> model;
  Tensor prompt;
  Setup() {
    set_num_threads(1);
    manual_seed(1337);
    models::GPTConfig cfg;
    cfg.block_size = 16;
    cfg.vocab_size = ds.vocab_size();
    cfg.n_layer = 2;
    cfg.n_head = 2;
    cfg.n_embd = 32;
    model = std::make_unique<models::GPT>(cfg);
    prompt = from_vector(ds.tokenizer().encode("ROMEO:"), {1, 6});
  }
};

}  // namespace

TEST_CASE("my_generate draws the tokens GPT::generate draws") {
  Setup s;
  struct Setting { double temperature; int64_t top_k; };
  for (Setting st : {Setting{0.0, 0}, Setting{1.0, 0}, Setting{0.8, 5}, Setting{2.0, 0},
                     Setting{5.0, 1}}) {
    INFO("temperature " << st.temperature << ", top_k " << st.top_k);
    Generator g1(7), g2(7);
    const Tensor mine = my_generate(*s.model, s.prompt, 40, st.temperature, st.top_k, g1);
    const Tensor library = s.model->generate(s.prompt, 40, st.temperature, st.top_k, &g2);
    REQUIRE(mine.shape() == Shape{1, 46});
    CHECK(mine.to_vector<int64_t>() == library.to_vector<int64_t>());
    // One uniform() per drawn token, none at temperature 0: both generators end in step.
    CHECK(g1.uniform() == g2.uniform());
  }
}

TEST_CASE("my_generate keeps the prompt, records no graph, and leaves train mode on") {
  Setup s;
  Generator g(3);
  const Tensor out = my_generate(*s.model, s.prompt, 20, 0.8, 0, g);
  CHECK(out.narrow(1, 0, 6).to_vector<int64_t>() == s.prompt.to_vector<int64_t>());
  CHECK_FALSE(out.requires_grad());
  CHECK(s.model->is_training());
}
