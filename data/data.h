// Everything in data/, for `#include "data/data.h"`.
#pragma once

#include "data/batch.h"
#include "data/bpe.h"
#include "data/dataset.h"
#include "data/digit_mul.h"
#include "data/gpt2_pretokenize.h"
#include "data/text_dataset.h"
#include "data/token_dataset.h"
#include "data/tokenizer.h"
