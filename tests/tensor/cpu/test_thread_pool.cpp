#include "tests/catch.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "helpers.h"
#include "tensor/cpu/thread_pool.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::ThreadCount;

TEST_CASE("parallel_for: covers every index exactly once", "[cpu][thread_pool]") {
  struct Range {
    int64_t begin, end, grain;
  };
  const std::vector<Range> ranges = {{0, 1, 1},   {0, 2, 1},    {0, 10, 1},     {3, 1000, 7},
                                     {-50, 50, 1}, {0, 100, 60}, {0, 5, 100},    {0, 10007, 1},
                                     {7, 7, 1},    {0, 64, 0}};
  for (int threads : {1, 2, 3, 4}) {
    ThreadCount tc(threads);
    for (Range r : ranges) {
      INFO("threads=" << threads << " [" << r.begin << ", " << r.end << ") grain " << r.grain);
      std::vector<std::atomic<int>> hits(size_t(r.end - r.begin));
      std::mutex mu;
      std::vector<std::pair<int64_t, int64_t>> chunks;
      cpu::parallel_for(r.begin, r.end, r.grain, [&](int64_t lo, int64_t hi) {
        {
          std::lock_guard<std::mutex> lock(mu);
          chunks.emplace_back(lo, hi);
        }
        for (int64_t i = lo; i < hi; ++i) hits[size_t(i - r.begin)]++;
      });
      int64_t wrong = 0;
      for (auto& h : hits) wrong += h.load() != 1;
      CHECK(wrong == 0);
      // No more chunks than threads; each at least one grain unless it is the whole range.
      CHECK(chunks.size() <= size_t(threads));
      for (auto [lo, hi] : chunks)
        CHECK((hi - lo >= r.grain || (lo == r.begin && hi == r.end)));
    }
  }
}

TEST_CASE("parallel_for: chunks run at the same time on 2 threads", "[cpu][thread_pool]") {
  ThreadCount tc(2);
  // Each of the two chunks waits until both have started: this finishes only if they run
  // on two threads at once (the wait gives up after 10 s so a failure cannot hang).
  std::atomic<int> started{0};
  std::mutex mu;
  std::set<std::thread::id> ids;
  bool timed_out = false;
  cpu::parallel_for(0, 2, 1, [&](int64_t, int64_t) {
    started++;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::yield();
    std::lock_guard<std::mutex> lock(mu);
    ids.insert(std::this_thread::get_id());
    timed_out = timed_out || started.load() < 2;
  });
  CHECK_FALSE(timed_out);
  CHECK(ids.size() == 2);
}

TEST_CASE("parallel_for: the first exception reaches the caller", "[cpu][thread_pool]") {
  for (int threads : {1, 2}) {
    ThreadCount tc(threads);
    INFO("threads=" << threads);
    const auto throw_at_5 = [](int64_t lo, int64_t hi) {
      if (lo <= 5 && 5 < hi) fail("chunk: index 5 is bad");
    };
    CHECK(error_message([&] { cpu::parallel_for(0, 100, 1, throw_at_5); }) ==
          "chunk: index 5 is bad");
    // The pool still works after a failure.
    std::atomic<int64_t> sum{0};
    cpu::parallel_for(0, 100, 1, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) sum += i;
    });
    CHECK(sum.load() == 99 * 100 / 2);
  }
}

TEST_CASE("parallel_for: nested calls run inline and finish", "[cpu][thread_pool]") {
  ThreadCount tc(2);
  std::vector<std::atomic<int>> hits(8 * 100);
  cpu::parallel_for(0, 8, 1, [&](int64_t lo, int64_t hi) {
    for (int64_t o = lo; o < hi; ++o)
      cpu::parallel_for(0, 100, 1, [&](int64_t ilo, int64_t ihi) {
        for (int64_t i = ilo; i < ihi; ++i) hits[size_t(o * 100 + i)]++;
      });
  });
  int64_t wrong = 0;
  for (auto& h : hits) wrong += h.load() != 1;
  CHECK(wrong == 0);
}

TEST_CASE("set_num_threads: 1 thread runs everything inline", "[cpu][thread_pool]") {
  ThreadCount tc(1);
  CHECK(num_threads() == 1);
  int calls = 0;
  std::thread::id where;
  cpu::parallel_for(0, 1000, 1, [&](int64_t lo, int64_t hi) {
    ++calls;
    where = std::this_thread::get_id();
    CHECK(lo == 0);
    CHECK(hi == 1000);
  });
  CHECK(calls == 1);
  CHECK(where == std::this_thread::get_id());
}

TEST_CASE("set_num_threads: bad counts and calls from inside parallel_for throw",
          "[cpu][thread_pool]") {
  CHECK(error_message([] { set_num_threads(0); }) == "set_num_threads: expected n >= 1, got 0");
  CHECK(error_message([] { set_num_threads(-3); }) == "set_num_threads: expected n >= 1, got -3");
  ThreadCount tc(2);
  CHECK(error_message([] {
          cpu::parallel_for(0, 2, 1, [](int64_t, int64_t) { set_num_threads(1); });
        }) == "set_num_threads: called from inside parallel_for");
  CHECK(num_threads() == 2);
}
