// Resolver: binds every identifier of a parsed `File` to a slot (local, cell, free, global,
// predeclared or universe) before execution, and reports every undefined name and misplaced
// statement (not just the first). Internal to starlark/.
#pragma once

#include <string>
#include <vector>

#include "starlark/ast.h"

namespace hintkit::starlark {

void resolve(File& file, const std::vector<std::string>& predeclared,
             std::vector<Problem>& problems);

}  // namespace hintkit::starlark
