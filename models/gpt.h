// nanoGPT's GPT: config, MLP, block and model (models/gpt/), and the attentions a block
// can hold (models/registry.h; nanoGPT's own is nn::CausalSelfAttention).
#pragma once

#include "models/gpt/gpt.h"
#include "nn/attention/causal_linear_attention.h"
#include "nn/attention/causal_self_attention.h"
#include "models/registry.h"
