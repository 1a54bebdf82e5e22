// The Linformer (Wang et al. 2020) as the linformer-pytorch package builds it
// (tatp22/linformer-pytorch): low-rank heads, the stack, the LM, the encoder-decoder and
// Padder, with a causal mode that does not leak (models/linformer/prefix_attention.h).
#pragma once

#include "models/linformer/config.h"
#include "models/linformer/enc_dec.h"
#include "models/linformer/feed_forward.h"
#include "models/linformer/linear_attention_head.h"
#include "models/linformer/linformer.h"
#include "models/linformer/linformer_lm.h"
#include "models/linformer/linformer_attention.h"
#include "models/linformer/padder.h"
#include "models/linformer/prefix_attention.h"
#include "models/linformer/projection.h"
#include "models/linformer/residual.h"
