// Internal: the program rewrite ytt applies to compiled templates (see template_ctx.cpp).
#pragma once

#include "starlark/ast.h"

namespace hintkit::starlark {

// Gives every def that builds YAML nodes its own evaluation context (start_ctx/end_ctx).
void insert_template_ctxs(File& file, const TemplateOps& ops);

}  // namespace hintkit::starlark
