// nanoGPT's GPT: config, attention, MLP, block and model (models/gpt/).
#pragma once

#include "models/gpt/gpt.h"
