// Internal: the cross-field checks that need the whole file (references, conflicts, defaults).
#pragma once

#include "diag/diag.h"
#include "hintfile/hintfile.h"

namespace hintkit::hintfile {

void check_semantics(const HintFile& hint, diag::Diagnostics& diags);

}  // namespace hintkit::hintfile
