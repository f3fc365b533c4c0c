// Resolver: binds every identifier of a parsed `File` to a slot (local, cell, free, global,
// predeclared or universe) before execution, and reports every undefined name and misplaced
// statement (not just the first). Entry point `resolve`; the walk over the tree is in
// resolver.cpp, what each name means at a point (scopes, "undefined") in scopes.h.
// Internal to starlark/.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "starlark/ast.h"

namespace hintkit::starlark {

using NamePredicate = std::function<bool(std::string_view name)>;

// `predeclared` are the host's names, in slot order; `is_universal` says which other names are
// builtins. The resolver leaves a universe binding's value for the evaluator to fill in (as
// starlark-go's resolver takes predicates, it does not depend on the builtins).
void resolve(File& file, const std::vector<std::string>& predeclared,
             const NamePredicate& is_universal, std::vector<Problem>& problems);

}  // namespace hintkit::starlark
