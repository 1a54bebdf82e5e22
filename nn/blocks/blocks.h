// Every Transformer block, for `#include "nn/blocks/blocks.h"`.
#pragma once

#include "nn/blocks/cross_attention_block.h"
#include "nn/blocks/decoder_block.h"
#include "nn/blocks/encoder_block.h"
#include "nn/blocks/isab.h"
#include "nn/blocks/mab.h"
#include "nn/blocks/pma.h"
#include "nn/blocks/sab.h"
#include "nn/attention/linear_attention.h"
#include "nn/attention/multi_head_attention.h"
#include "nn/attention/positional_encoding.h"
#include "nn/attention/keep_mask.h"
