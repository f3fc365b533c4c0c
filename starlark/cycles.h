// Internal: frees the reference cycles counting cannot (a module's globals hold its functions,
// each function holds its module; a closure can hold itself through a captured cell).
// Internal to starlark/.
#pragma once

#include <memory>

#include "starlark/values.h"

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

// Frees the cycles among the containers a thread has made (`ThreadState::containers`) and
// what they reach, generationally: a young collection looks at the containers made since the
// last one, and stops at the older ones (a reference from one counts as a reference from
// outside); a full one looks at them all. Both stop at frozen lists, dicts and structs
// (whatever a frozen value reaches is frozen too, so only all-frozen cycles pass through one:
// a module's, freed with it above) and at modules. The survivors become old.
// Cost: the nodes and edges reached, W. The next collection is due once 4096 more containers
// have been made and the program has run W / 4 more steps (`ContainerList::work_due`), a full
// one once max(16384, W / 2) containers have become old (`next_full_at`): the collections of a
// thread cost at most four units per step it runs plus one pass over what it holds at its end,
// and cyclic garbage waits for a few thousand containers (young) or half of those alive at the
// last full collection (old).
void collect_containers(ContainerList& list, bool full);

// The same, looking at what `held` reaches (the caller's own references in `held` count as
// inside ones), then lets go of `held`.
void collect_cycles_held(std::vector<Value>& held);

}  // namespace hintkit::starlark
