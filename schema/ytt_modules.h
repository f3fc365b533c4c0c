// The `@ytt:*` library modules, one builder per module; `ytt_module()` (internal.h) picks one.
// ytt_modules.cpp: struct, data, overlay and the dispatcher; ytt_assert.cpp: assert;
// ytt_codec.cpp: json, yaml, regexp.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "schema/internal.h"

namespace hintkit::schema {

sl::Value assert_module();
sl::Value json_module();
sl::Value yaml_module();
sl::Value regexp_module();

// Helpers shared by the module files.
// "name: got N arguments, want M" when the count of positional arguments is outside
// [min, max] (max < 0: no upper bound), as starlark-go's argument unpacking words it.
std::optional<sl::Error> check_arg_count(const sl::Call& c, size_t min, int max);
// ytt's YAML encoding of a Starlark value (`yaml.encode`, `assert.equals`).
std::string yaml_text(const sl::Value& v);

}  // namespace hintkit::schema
