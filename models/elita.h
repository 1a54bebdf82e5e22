// ELiTA (acosharma/elita-transformer): time-linear attention, FeedForward2 and the LM built
// from them (models/elita/).
#pragma once

#include "models/elita/attention2.h"
#include "models/elita/block.h"
#include "models/elita/elita_lm.h"
#include "models/elita/feed_forward2.h"
