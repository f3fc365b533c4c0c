#include "diag/stack.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <exception>

#if defined(__SANITIZE_ADDRESS__)
#define HINTKIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HINTKIT_ASAN 1
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

// The lowest usable address of the calling thread's stack (stacks grow down on every target
// hintkit builds for), found once per thread.
uintptr_t stack_floor() {
  thread_local uintptr_t floor = [] {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return uintptr_t{0};
    void* addr = nullptr;
    size_t size = 0;
    size_t guard = 0;
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_getguardsize(&attr, &guard);
    pthread_attr_destroy(&attr);
    return reinterpret_cast<uintptr_t>(addr) + guard;
  }();
  return floor;
}

}  // namespace

void run_with_big_stack(const std::function<void()>& work) {
  Job job{&work, nullptr};
  pthread_attr_t attr;
  pthread_t thread;
  bool started = false;
  if (pthread_attr_init(&attr) == 0) {
    started = pthread_attr_setstacksize(&attr, kBigStackBytes) == 0 &&
              pthread_create(&thread, &attr, run_job, &job) == 0;
    pthread_attr_destroy(&attr);
  }
  if (started) {
    pthread_join(thread, nullptr);
  } else {
    run_job(&job);
  }
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
