// Internal to tmplcheck/.
#pragma once

#include <string>
#include <vector>

#include "tmplcheck/tmplcheck.h"

namespace hintkit::tmplcheck {

// Every function name of a flavor, sorted (for did-you-mean on "function not defined").
std::vector<std::string> function_names(Flavor flavor);

}  // namespace hintkit::tmplcheck
