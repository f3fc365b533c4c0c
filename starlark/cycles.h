// Internal: frees the reference cycles counting cannot (a module's globals hold its functions,
// each function holds its module; a closure can hold itself through a captured cell).
// Internal to starlark/.
#pragma once

#include <memory>

#include "starlark/runtime.h"

namespace hintkit::starlark {

// Tracks a module env / a closure (a function with captured cells) for the collector.
void track_module(const std::shared_ptr<ModuleEnv>& module);
void track_closure(FunctionObj* closure);
void untrack_closure(FunctionObj* closure);

// Drops the globals of every tracked module (and the values of cells) that nothing outside the
// tracked modules and closures keeps alive, freeing those cycles. `only`: look at that module
// alone (references from anywhere else count as outside ones; `only` itself is not counted),
// which is cheap; else at all of them.
void collect_cycles(const std::shared_ptr<ModuleEnv>& only = nullptr);

// The same, looking at what `held` reaches (the caller's own references in `held` count as
// inside ones), then lets go of `held`.
void collect_cycles_held(std::vector<Value>& held);

}  // namespace hintkit::starlark
