// Internal: reading a provided-values file (YAML or JSON, `-` for stdin) and writing
// resolved values as YAML or JSON.
#pragma once

#include <iosfwd>
#include <string>

#include "diag/diag.h"
#include "yaml/yaml.h"

namespace hintkit::plugin {

// All of standard input, at most fileio::kMaxFileBytes.
diag::Result<std::string> read_stdin(std::istream& in);

// The single document of `path` (or stdin for "-"); an empty input is an empty map.
// Syntax problems are diagnostics; unreadable input is an `Error`. Without `show_values` the
// diagnostics name places, never the text of a value.
diag::Result<yaml::Node> load_values(const std::string& path, std::istream& in,
                                     diag::Diagnostics& diags, bool show_values);

// `format` is "yaml" or "json".
void write_values(std::ostream& out, const yaml::Node& values, std::string_view format);

}  // namespace hintkit::plugin
