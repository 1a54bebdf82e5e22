// The CPU thread pool behind parallel_for: one queue of tasks, guarded by a mutex, that
// n - 1 worker threads sleep on (condition_variable) until a parallel_for posts work.
#include "tensor/cpu/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tensor/error.h"

namespace attic::cpu {
namespace {

// True on pool workers for their whole life, and on any thread while it runs the chunks of
// a parallel_for: a parallel_for started there runs inline instead of queueing behind itself.
thread_local bool t_in_parallel = false;

// Waking a thread asleep on a condition variable takes tens of microseconds, a large part of
// a GEMM of a few hundred microseconds. So a thread about to sleep first polls for up to
// 200 us whether `ready()` holds: a worker then picks up back-to-back parallel_fors awake,
// and the caller sees the last chunk finish without a wake-up. Polling yields the core, so a
// busy machine loses little to it.
template <class Ready>
void spin_until(Ready ready) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
  while (!ready() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
}

class Pool {
 public:
  // workers: the number of threads to start (the caller of parallel_for is not one of them).
  // When the system refuses a thread (std::system_error: a process or memory limit), the
  // threads already started are stopped and joined before the error leaves: a std::thread
  // destroyed while joinable calls std::terminate.
  explicit Pool(int workers) {
    try {
      for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
    } catch (const std::exception& e) {
      const size_t started = threads_.size();
      stop_and_join();
      fail("thread pool: the system refused to start worker thread ", started + 1, " of ",
           workers, " (", e.what(), "); ask for fewer threads (--threads or ATTIC_NUM_THREADS)");
    }
  }

  ~Pool() { stop_and_join(); }

  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  int workers() const { return int(threads_.size()); }

  // Queues `copies` calls of task.
  void submit(const std::function<void()>& task, int64_t copies) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (int64_t i = 0; i < copies; ++i) queue_.push_back(task);
      queued_.store(int64_t(queue_.size()));
    }
    if (copies == 1)
      cv_.notify_one();
    else
      cv_.notify_all();
  }

 private:
  // Runs what is still queued, then joins every worker.
  void stop_and_join() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void work() {
    t_in_parallel = true;
    for (;;) {
      spin_until([this] { return queued_.load() > 0; });
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stop_ and nothing left
        task = std::move(queue_.front());
        queue_.pop_front();
        queued_.store(int64_t(queue_.size()));
      }
      task();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  std::atomic<int64_t> queued_{0};  // queue_.size(), readable without the lock
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// The thread count and the pool that serves it; the pool is made on first need.
struct State {
  std::mutex mu;
  int threads = 0;  // 0: not read from the environment yet
  std::unique_ptr<Pool> pool;
};

State& state() {
  static State s;
  return s;
}

// $ATTIC_NUM_THREADS if set, else the number of hardware threads (at least 1).
int default_threads() {
  const char* env = std::getenv("ATTIC_NUM_THREADS");
  if (env != nullptr && *env != '\0') {
    char* rest = nullptr;
    const long n = std::strtol(env, &rest, 10);
    ATTIC_CHECK(*rest == '\0' && n >= 1 && n <= 4096,
                "ATTIC_NUM_THREADS: expected an integer in [1, 4096], got '", env, "'");
    return int(n);
  }
  return std::max(1, int(std::thread::hardware_concurrency()));
}

// Caller holds s.mu.
int threads_locked(State& s) {
  if (s.threads == 0) s.threads = default_threads();
  return s.threads;
}

// The pool with num_threads() - 1 workers, made (or remade) here if needed.
Pool& pool_for(int threads) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.pool || s.pool->workers() != threads - 1) {
    s.pool.reset();
    s.pool = std::make_unique<Pool>(threads - 1);
  }
  return *s.pool;
}

// One parallel_for: chunk c covers [begin + n c / chunks, begin + n (c + 1) / chunks), so
// chunk sizes differ by at most one. Threads claim chunks through `next`.
struct Job {
  const std::function<void(int64_t, int64_t)>* fn = nullptr;
  int64_t begin = 0, n = 0, chunks = 0;
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<int64_t> done{0};  // chunks finished (or skipped)
  std::exception_ptr error;      // the first exception, under mu
};

// Claims and runs chunks until none is left. A late worker finds none and touches nothing
// but the Job, which it keeps alive through its shared_ptr; fn is only used for a claimed
// chunk, and the caller of parallel_for waits for every claimed chunk.
void run_chunks(Job& job) {
  for (int64_t c = job.next.fetch_add(1); c < job.chunks; c = job.next.fetch_add(1)) {
    if (!job.failed.load()) {
      try {
        (*job.fn)(job.begin + job.n * c / job.chunks, job.begin + job.n * (c + 1) / job.chunks);
      } catch (...) {
        std::lock_guard<std::mutex> lock(job.mu);
        if (!job.error) job.error = std::current_exception();
        job.failed.store(true);
      }
    }
    if (job.done.fetch_add(1) + 1 == job.chunks) {
      std::lock_guard<std::mutex> lock(job.mu);  // the caller checks `done` under mu
      job.cv.notify_all();
    }
  }
}

}  // namespace

bool in_parallel_for() { return t_in_parallel; }

// [begin, end) in chunks = min(threads, n / grain) pieces; see thread_pool.h.
void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& fn) {
  if (end <= begin) return;
  const int64_t n = end - begin;
  const int threads = t_in_parallel ? 1 : num_threads();
  const int64_t chunks = std::min<int64_t>(threads, n / std::max<int64_t>(grain, 1));
  if (chunks <= 1) {
    fn(begin, end);
    return;
  }

  auto job = std::make_shared<Job>();
  job->fn = &fn;
  job->begin = begin;
  job->n = n;
  job->chunks = chunks;
  pool_for(threads).submit([job] { run_chunks(*job); }, chunks - 1);

  t_in_parallel = true;
  run_chunks(*job);
  t_in_parallel = false;

  std::exception_ptr error;
  {
    spin_until([&] { return job->done.load() == job->chunks; });
    std::unique_lock<std::mutex> lock(job->mu);
    job->cv.wait(lock, [&] { return job->done.load() == job->chunks; });
    error = std::move(job->error);  // a late worker may free the Job; the caller owns this
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace attic::cpu

namespace attic {

int num_threads() {
  cpu::State& s = cpu::state();
  std::lock_guard<std::mutex> lock(s.mu);
  return cpu::threads_locked(s);
}

void set_num_threads(int n) {
  ATTIC_CHECK(n >= 1, "set_num_threads: expected n >= 1, got ", n);
  ATTIC_CHECK(!cpu::t_in_parallel, "set_num_threads: called from inside parallel_for");
  cpu::State& s = cpu::state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.threads != n) s.pool.reset();  // the next parallel_for starts n - 1 workers
  s.threads = n;
}

}  // namespace attic
