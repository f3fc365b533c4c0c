#include "diag/stack.h"

#include <pthread.h>

#include <cstdint>
#include <exception>

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

bool stack_exhausted() {
  uintptr_t floor = stack_floor();
  if (floor == 0) return false;
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return here < floor + kStackReserveBytes;
}

}  // namespace hintkit::diag
