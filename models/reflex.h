// Reflex and route attention (Vadimbuildercxx/reflex_attention, a fork of karpathy/nanoGPT):
// GPT attentions whose keys and values also come from the inputs of the two blocks before,
// the digit-multiplication task the fork trains them on, and the Rényi entropy of a block's
// Gram spectrum that measures representation collapse.
#pragma once

#include "models/reflex/reflex_attention.h"
#include "models/reflex/route_attention.h"
#include "models/reflex/sources.h"
