// Everything in optim/, for `#include "optim/optim.h"`.
#pragma once

#include "optim/adam.h"
#include "optim/clip_grad.h"
#include "optim/decay_groups.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "optim/sgd.h"
