// The CPU thread pool: a few std::threads that share the work of one parallel_for at a time.
// Its size is set through tensor/threads.h (num_threads, set_num_threads).
#pragma once

#include <cstdint>
#include <functional>

#include "tensor/threads.h"

namespace attic::cpu {

// Splits [begin, end) into at most num_threads() contiguous chunks of at least `grain`
// indices and calls fn(chunk_begin, chunk_end) once per chunk, on the pool and the calling
// thread. Returns when every chunk is done; rethrows the first exception a chunk threw
// (chunks not yet started are then skipped). Runs fn(begin, end) inline when the range fits
// in one grain, when num_threads() == 1, or when called from inside another parallel_for
// (so nesting never waits on a busy pool).
void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn);

// Whether the calling thread is running a chunk of a parallel_for that was split over
// threads (a pool worker always is): a parallel_for called now runs inline.
bool in_parallel_for();

}  // namespace attic::cpu
