// Everything in data/, for `#include "data/data.h"`.
#pragma once

#include "data/batch.h"
#include "data/text_dataset.h"
#include "data/tokenizer.h"
