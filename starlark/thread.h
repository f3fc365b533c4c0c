// The running thread, below the value layer: its limits and counters (`ThreadState`), the
// charges and size checks value operations make against them, the list of containers it has
// made, and the internal error exception. Internal to starlark/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "starlark/starlark.h"

namespace hintkit::starlark {

// Thrown inside the interpreter; converted to `Error` at the API boundary.
struct EvalError {
  explicit EvalError(std::string m, ErrorKind k = ErrorKind::kRuntime)
      : message(std::move(m)), kind(k) {}
  std::string message;
  ErrorKind kind = ErrorKind::kRuntime;
  std::vector<Frame> frames;  // filled while unwinding, innermost first
  std::shared_ptr<Error> cause;
  bool bare = false;  // a Go runtime panic in ytt's starlark: reported without a call stack
};
[[noreturn]] void throw_error(std::string message);
[[noreturn]] void throw_limit(std::string message);

// A link in the list of mutable containers a Starlark thread has made (`ContainerList`, for
// the cycle collector in starlark/cycles.h): only a mutable container can close a cycle, so
// these are where a collection starts. A container made outside any thread is not linked.
struct GcLink {
  GcLink* gc_prev = nullptr;
  GcLink* gc_next = nullptr;
};

// The containers a thread has made, in two circular lists: `young`, made since the last
// collection, and `old`, those that outlived one. On destruction, the ones still alive leave
// both (they outlive the thread: a module's globals, values handed to the host).
struct ContainerList {
  ContainerList() {
    young.gc_prev = young.gc_next = &young;
    old.gc_prev = old.gc_next = &old;
  }
  ContainerList(const ContainerList&) = delete;
  ContainerList& operator=(const ContainerList&) = delete;
  ~ContainerList();
  GcLink young;
  GcLink old;
  size_t made = 0;              // containers made since the last collection (in `young`)
  size_t next_at = 4096;        // a young collection (at a call's return) once `made` reaches this
  size_t work_due = 0;          // ...and the program has run this many steps since the last one
  int64_t steps_at = 0;         // the thread's step count at the last collection
  size_t promoted = 0;          // containers moved to `old` since the last full collection
  size_t next_full_at = 16384;  // a full collection once `promoted` reaches this
};

struct Env;  // one activation of a Starlark function or a top level (eval.cpp)

// What a `Thread` (starlark.h) holds while it runs: its options and counters.
struct ThreadState {
  explicit ThreadState(Thread& t, ThreadOptions o) : thread(t), options(std::move(o)) {}
  Thread& thread;
  ThreadOptions options;
  int64_t steps = 0;
  int depth = 0;
  // The innermost activation of the running API call (`Thread::exec` or `Thread::call`), each
  // linked to its caller's: a limit error reads its call stack here instead of collecting it
  // while it unwinds.
  Env* top = nullptr;
  ContainerList containers;  // what the cycle collector looks at (starlark/cycles.h)

  void step() { charge(1); }
  // Charges `n` steps at once: work proportional to a size (see kBytesPerStep).
  void charge(int64_t n) {
    steps += n;
    if (steps > options.limits.max_steps) {
      throw_limit("Starlark computation cancelled: too many steps (limit " +
                  std::to_string(options.limits.max_steps) + ")");
    }
  }
};

// The thread running Starlark on this OS thread (null outside an API call); set by eval.cpp.
// hk_starlark is a static library linked into executables only, so its thread-locals can take
// the local-exec model: one instruction per access, as the evaluator reads this per statement.
extern constinit thread_local ThreadState* g_thread [[gnu::tls_model("local-exec")]];
ThreadState& current_thread();

// Charge the running thread (if any) for work: a step per `kBytesPerStep` bytes read or per
// element built.
void charge_bytes(size_t n);
void charge_elements(size_t n);

// Size-limit checks against the running thread's limits (the defaults outside a thread).
void check_string_size(size_t n);
void check_collection_size(size_t n);

}  // namespace hintkit::starlark
