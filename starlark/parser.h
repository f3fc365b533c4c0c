// Parser: tokens -> `File` (AST with 1-based positions). Stops at the first syntax error, as
// starlark-go does, and reports it as a `Problem`. Internal to starlark/.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "starlark/ast.h"

namespace hintkit::starlark {

// Returns null and appends to `problems` on a syntax error.
std::unique_ptr<File> parse(std::string_view file, std::string_view source,
                            std::vector<Problem>& problems);

}  // namespace hintkit::starlark
