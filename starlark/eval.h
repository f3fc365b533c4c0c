// Evaluator internals: the compiled program (made by compile.cpp) and calling any callable.
// The per-thread state (limits, counters, hooks) is in thread.h. Internal to starlark/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "starlark/ast.h"
#include "starlark/values.h"

namespace hintkit::starlark {

struct ProgramImpl {
  std::unique_ptr<File> file;
  std::vector<std::string> predeclared;  // names, in predeclared slot order
};

// Calls any callable: a Starlark function, a builtin or a host function.
Value call_value(const Value& fn, std::span<const Value> args, std::span<const Kwarg> kwargs);

}  // namespace hintkit::starlark
