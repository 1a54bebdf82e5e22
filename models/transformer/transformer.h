// The models built from nn/blocks: the pooled LM and the encoder-decoder (models/transformer/).
#pragma once

#include "models/transformer/copy_task.h"
#include "models/transformer/encoder_decoder.h"
#include "models/transformer/pooled_lm.h"
#include "models/sampling.h"
