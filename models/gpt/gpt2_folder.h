// OpenAI's GPT-2 as Hugging Face's transformers stores it, in and out of attic's GPT: a folder
// with config.json, model.safetensors, and the tokenizer's vocab.json and merges.txt (the
// files of the Hub's openai-community/gpt2, gpt2-medium, gpt2-large and gpt2-xl).
//
// transformers' GPT2LMHeadModel holds each Linear as a Conv1D, whose weight is [in, out]:
// attic's Linear (like nanoGPT's nn.Linear) is [out, in], so c_attn, c_proj, c_fc and
// mlp.c_proj are transposed on the way in and out, as nanoGPT's GPT.from_pretrained does
// (karpathy/nanoGPT, model.py). Names gain or lose "transformer."; lm_head.weight is tied to
// wte.weight and not stored.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/bpe.h"
#include "models/gpt/gpt.h"
#include "nn/module.h"

namespace attic::models {

// The four GPT-2 models of OpenAI's release, with nanoGPT's names for them.
struct Gpt2Size {
  std::string name;  // gpt2, gpt2-medium, gpt2-large, gpt2-xl
  int64_t n_layer, n_head, n_embd;
  const char* params;  // as OpenAI counts them: "124M", ...
};
const std::vector<Gpt2Size>& gpt2_sizes();
// Whether name is one of gpt2_sizes() or "huggingface" (a GPT-2 of any shape: its folder's
// config.json says which).
bool is_gpt2_name(const std::string& name);

// The GPTConfig of dir/config.json: biases on, GELU as config.json's activation_function
// says (gelu_new, GPT-2's: tanh), n_positions as block_size, vocab_size as given (50257 for
// OpenAI's). name must be one of gpt2_sizes() with that shape, or "huggingface". Throws one
// line saying what to download and from where when dir or a file is missing, and naming the
// key for a config this GPT cannot be (a width of the MLP other than 4C, untied embeddings, an
// epsilon other than 1e-5, ...).
GPTConfig read_gpt2_config(const std::string& dir, const std::string& name);

// dir/model.safetensors in attic's names and layout, for `model` (a GPT of read_gpt2_config's
// shape): every tensor present with its shape, nothing left over (transformers' attention-mask
// buffers, attn.bias and attn.masked_bias of older files, are skipped). The file's wpe has
// n_positions rows; a model of a smaller block_size keeps the first ones, as nanoGPT's
// crop_block_size does.
nn::StateDict read_gpt2_weights(const std::string& dir, const GPT& model, int64_t n_positions);

// The GPT of dir, in eval mode: read_gpt2_config, then the weights; block_size 0 keeps the
// folder's n_positions, a smaller one crops. dropout is the one setting a finetune may change.
std::unique_ptr<GPT> load_gpt2(const std::string& dir, const std::string& name, int64_t block_size = 0,
                               double dropout = 0.0);

// GPT-2's tokenizer in dir: vocab.json and merges.txt (Hugging Face's names), or encoder.json
// and vocab.bpe (OpenAI's). Throws naming the files to download when neither pair is there.
BpeTokenizer read_gpt2_tokenizer(const std::string& dir);

// Writes model (gelu tanh, biases on) as transformers' GPT2LMHeadModel reads it:
// dir/config.json and dir/model.safetensors (atomic, each). Its tokenizer is the caller's.
void save_gpt2(const GPT& model, const std::string& dir);

}  // namespace attic::models
