// Out-of-memory errors that name the settings that sized the failed allocation.
#pragma once

#include <new>
#include <stdexcept>
#include <string>

#include "train/train_config.h"
#include "tensor/error.h"

namespace attic::train {

// "n_layer=6 n_head=6 n_embd=384 block_size=256": the settings that size a model's tensors.
std::string model_size_settings(const TrainConfig& cfg);
// The model's settings and batch_size: the settings that size a step's activations.
std::string step_size_settings(const TrainConfig& cfg);

// Throws "<doing> with <settings> ran out of memory: <what>".
[[noreturn]] void fail_out_of_memory(const std::string& doing, const std::string& settings,
                                     const std::string& what);

// Runs fn(). An allocation that fails inside it (attic::OutOfMemory from a backend or from a
// shape too large to count, std::bad_alloc from operator new, std::length_error from a
// container asked for more than it can hold) becomes one attic::Error that names `doing`
// and the settings:
//   "train: building the model with n_layer=100000 ... ran out of memory: <what failed>".
template <class F>
decltype(auto) naming_settings(const std::string& doing, const std::string& settings, F&& fn) {
  try {
    return fn();
  } catch (const OutOfMemory& e) {
    fail_out_of_memory(doing, settings, e.what());
  } catch (const std::bad_alloc&) {
    fail_out_of_memory(doing, settings, "operator new found no memory");
  } catch (const std::length_error& e) {
    fail_out_of_memory(doing, settings, e.what());
  }
}

}  // namespace attic::train
