// Evaluator internals: the compiled program and the per-thread state (limits, counters, hooks).
// Internal to starlark/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "starlark/ast.h"
#include "starlark/runtime.h"

namespace hintkit::starlark {

struct ProgramImpl {
  std::unique_ptr<File> file;
  std::vector<std::string> predeclared;  // names, in predeclared slot order
};

struct Env;  // one activation of a Starlark function or a top level (eval.cpp)

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

}  // namespace hintkit::starlark
