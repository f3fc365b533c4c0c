#include "diag/stack.h"

#include <pthread.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <ucontext.h>

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#define HINTKIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HINTKIT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define HINTKIT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HINTKIT_TSAN 1
#endif
#endif
#ifdef HINTKIT_ASAN
#include <dlfcn.h>
#include <sanitizer/asan_interface.h>
#endif

namespace hintkit::diag {
namespace {

struct Job {
  const std::function<void()>* work;
  std::exception_ptr error;
};

void* run_job(void* arg) {
  auto* job = static_cast<Job*>(arg);
  try {
    (*job->work)();
  } catch (...) {
    job->error = std::current_exception();
  }
  return nullptr;
}

// While `run_with_big_stack` has switched the calling thread onto a stack of its own, that
// stack's lowest usable address; 0 on the thread's own stack.
thread_local uintptr_t switched_floor = 0;
// The size of the stack the thread runs on (0: its own, not yet looked up), and whether
// `run_with_big_stack` got less than `kBigStackBytes` because of the address-space limit.
thread_local size_t running_stack_bytes = 0;
thread_local bool running_stack_capped = false;

// The stack sizes to try, largest first: `kBigStackBytes`, but under an address-space limit
// (`ulimit -v`) no more than a quarter of it, so the heap keeps the rest; each failed mapping
// halves the size, down to `kMinBigStackBytes`.
constexpr size_t kMinBigStackBytes = size_t{8} << 20;
size_t first_stack_try() {
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    return std::min(kBigStackBytes, std::max(kMinBigStackBytes, size_t(lim.rlim_cur / 4)));
  return kBigStackBytes;
}

// The lowest usable address of the stack the caller runs on (stacks grow down on every target
// hintkit builds for); the thread's own is found once per thread.
uintptr_t stack_floor() {
  if (switched_floor != 0) return switched_floor;
  thread_local uintptr_t floor = [] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return uintptr_t{0};
    void* addr = nullptr;
    size_t size = 0;
    size_t guard = 0;
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_getguardsize(&attr, &guard);
    pthread_attr_destroy(&attr);
    if (running_stack_bytes == 0) running_stack_bytes = size;
    return reinterpret_cast<uintptr_t>(addr) + guard;
  }();
  return floor;
}

// Runs the job on a new thread with a big stack; false when no such thread can be made.
struct ThreadJob {
  Job* job;
  size_t bytes;
  bool capped;
};

void* run_thread_job(void* arg) {
  auto* t = static_cast<ThreadJob*>(arg);
  running_stack_bytes = t->bytes;
  running_stack_capped = t->capped;
  return run_job(t->job);
}

bool run_on_big_thread(Job& job) {
  for (size_t bytes = first_stack_try(); bytes >= kMinBigStackBytes; bytes /= 2) {
    pthread_attr_t attr;
    pthread_t thread;
    bool started = false;
    ThreadJob t{&job, bytes, bytes < kBigStackBytes};
    if (pthread_attr_init(&attr) == 0) {
      started = pthread_attr_setstacksize(&attr, bytes) == 0 &&
                pthread_create(&thread, &attr, run_thread_job, &t) == 0;
      pthread_attr_destroy(&attr);
    }
    if (started) {
      pthread_join(thread, nullptr);
      return true;
    }
  }
  return false;
}

#if !defined(HINTKIT_ASAN) && !defined(HINTKIT_TSAN)
// The job `enter_job` runs: makecontext passes only int arguments, so the pointer goes here.
thread_local Job* switched_job = nullptr;

void enter_job() { run_job(switched_job); }

// Runs the job on the calling thread after switching it onto a freshly mapped big stack, and
// back once the job has ended; false when the stack cannot be mapped. Cheaper than a thread:
// the allocator keeps serving the job from this thread's heap instead of starting another
// (a second thread cost 10 MB of peak memory and 20 ms on the N=1600 values benchmark).
bool run_on_switched_stack(Job& job) {
  // Below the stack, a region that faults: overflowing it crashes rather than corrupting.
  constexpr size_t kGuardBytes = size_t{64} << 10;
  size_t bytes = first_stack_try();
  void* base = MAP_FAILED;
  for (; bytes >= kMinBigStackBytes; bytes /= 2) {
    base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base != MAP_FAILED) break;
  }
  if (base == MAP_FAILED) return false;
  bool ran = false;
  ucontext_t caller;
  ucontext_t callee;
  if (mprotect(base, kGuardBytes, PROT_NONE) == 0 && getcontext(&callee) == 0) {
    callee.uc_stack.ss_sp = base;
    callee.uc_stack.ss_size = bytes;
    callee.uc_link = &caller;  // where the thread continues when enter_job returns
    makecontext(&callee, enter_job, 0);
    Job* outer_job = switched_job;
    uintptr_t outer_floor = switched_floor;
    size_t outer_bytes = running_stack_bytes;
    bool outer_capped = running_stack_capped;
    switched_job = &job;
    switched_floor = reinterpret_cast<uintptr_t>(base) + kGuardBytes;
    running_stack_bytes = bytes;
    running_stack_capped = bytes < kBigStackBytes;
    ran = swapcontext(&caller, &callee) == 0;
    switched_job = outer_job;
    switched_floor = outer_floor;
    running_stack_bytes = outer_bytes;
    running_stack_capped = outer_capped;
  }
  munmap(base, bytes);
  return ran;
}
#else
// The sanitizers do not follow a thread onto a stack it switched to by hand: a thread with a
// big stack runs the job. Starting one costs them dearly (ASan maps and later clears the
// shadow of its whole stack: a thread per call made the values fuzz target spend a tenth of
// its time there), so each calling thread keeps one such worker for all its jobs, started on
// first use and joined when the calling thread ends. A job on a worker that itself calls
// `run_with_big_stack` gets that worker's own worker.
class BigStackWorker {
 public:
  ~BigStackWorker() {
    if (!started_) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    wake_.notify_all();
    pthread_join(thread_, nullptr);
  }

  // false when no such thread can be made.
  bool run(Job& job) {
    if (!started_ && !start()) return false;
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &job;
    wake_.notify_all();
    wake_.wait(lock, [&] { return job_ == nullptr; });
    return true;
  }

 private:
  bool start() {
    for (size_t bytes = first_stack_try(); bytes >= kMinBigStackBytes; bytes /= 2) {
      pthread_attr_t attr;
      if (pthread_attr_init(&attr) != 0) return false;
      bytes_ = bytes;
      started_ = pthread_attr_setstacksize(&attr, bytes) == 0 &&
                 pthread_create(&thread_, &attr, loop, this) == 0;
      pthread_attr_destroy(&attr);
      if (started_) return true;
    }
    return false;
  }

  static void* loop(void* arg) {
    auto* self = static_cast<BigStackWorker*>(arg);
    running_stack_bytes = self->bytes_;
    running_stack_capped = self->bytes_ < kBigStackBytes;
    std::unique_lock<std::mutex> lock(self->mutex_);
    while (true) {
      self->wake_.wait(lock, [&] { return self->job_ != nullptr || self->quit_; });
      if (self->job_ == nullptr) return nullptr;
      lock.unlock();
      run_job(self->job_);
      release_stack_below(reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
      lock.lock();
      self->job_ = nullptr;
      self->wake_.notify_all();
    }
  }

  // Gives back the pages a deep job touched, as the end of a thread would.
  static void release_stack_below(uintptr_t here) {
    constexpr uintptr_t kPage = 4096;
    constexpr uintptr_t kKept = uintptr_t{1} << 20;  // the loop's own frames stay
    uintptr_t floor = stack_floor();
    uintptr_t top = here > kKept ? ((here - kKept) & ~(kPage - 1)) : 0;
    if (floor != 0 && top > floor) {
      madvise(reinterpret_cast<void*>(floor), top - floor, MADV_DONTNEED);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  Job* job_ = nullptr;
  bool quit_ = false;
  bool started_ = false;
  size_t bytes_ = 0;
  pthread_t thread_{};
};

// Under the sanitizers: the calling thread's worker rather than a switched stack.
bool run_on_switched_stack(Job& job) {
  thread_local BigStackWorker worker;
  return worker.run(job);
}
#endif

}  // namespace

void run_with_big_stack(const std::function<void()>& work) {
  Job job{&work, nullptr};
  if (!run_on_switched_stack(job) && !run_on_big_thread(job)) run_job(&job);
  if (job.error) std::rethrow_exception(job.error);
}

#ifdef HINTKIT_ASAN
namespace {
// AddressSanitizer clears the poison of the frames an exception unwinds only when the thread
// is less than 64 MB deep (google/sanitizers#189); Starlark recursion on the big stack goes far
// deeper, and the stale poison then shows as false errors in later calls. The deepest point
// recursion reached since the last catch (noted by `stack_exhausted`) bounds what to clear.
thread_local uintptr_t deepest_seen = UINTPTR_MAX;
// Frames below the last noted point (builtins, the throw itself) stay within this much.
constexpr uintptr_t kUnnotedFrames = uintptr_t{8} << 20;
// What a catch block itself runs below the catch (a rethrow, the unwinder) stays within this.
constexpr uintptr_t kCatchFrames = uintptr_t{64} << 10;
}  // namespace
}  // namespace hintkit::diag

// Every catch in the program starts here: the stack below the catching frame is dead, so its
// poison is cleared before anything runs there again.
extern "C" void* __cxa_begin_catch(void* exception) noexcept {
  using BeginCatch = void* (*)(void*) noexcept;
  static const auto real = reinterpret_cast<BeginCatch>(dlsym(RTLD_NEXT, "__cxa_begin_catch"));
  using hintkit::diag::deepest_seen;
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  uintptr_t floor = hintkit::diag::stack_floor();
  uintptr_t from = std::max(deepest_seen, floor);
  if (floor != 0 && from < here) {
    __asan_unpoison_memory_region(reinterpret_cast<void*>(from), here - from);
  }
  // A rethrow from the catch block unwinds from about here on.
  deepest_seen = here > hintkit::diag::kCatchFrames ? here - hintkit::diag::kCatchFrames : 0;
  return real(exception);
}

namespace hintkit::diag {
#endif

std::string stack_exhausted_reason() {
  stack_floor();  // looks up the size of the thread's own stack
  std::string size = std::to_string(running_stack_bytes >> 20) + " MiB";
  if (running_stack_capped)
    return "the " + size +
           " stack ran out (the address-space limit, ulimit -v, leaves no room for a larger one)";
  if (switched_floor == 0 && running_stack_bytes != kBigStackBytes)
    return "the thread's " + size + " stack ran out";
  return "the " + size + " stack ran out";
}

bool stack_exhausted() {
  uintptr_t floor = stack_floor();
  if (floor == 0) return false;
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
#ifdef HINTKIT_ASAN
  uintptr_t below = here > floor + kUnnotedFrames ? here - kUnnotedFrames : floor;
  deepest_seen = std::min(deepest_seen, below);
#endif
  return here < floor + kStackReserveBytes;
}

}  // namespace hintkit::diag
