// Hint vars -> final values. Entry point: `resolve(hint, provided, diags)`.
//
// The order is the spec's: for each declared var, a provided value is kept (and must fit the
// var's type), a missing required var is a violation, a default is injected, otherwise the
// zero value ("" / [] / {}); then `required_with`, `required_without` (judged on what the user
// provided, never on injected values), formats on non-empty strings (injected defaults too)
// and `oneof_required` rules. A var is *provided* when its key is present with a non-null
// value. Vars the hint does not declare pass through unchanged. Every violation is appended
// to `diags`; the returned map is the declared vars in hint order, then the pass-through vars.
//
// `tazuna.yaml` var sources live in `sources.h` of a later issue; this module takes the
// provided vars as a YAML map however they were obtained.
#pragma once

#include "diag/diag.h"
#include "hintfile/hintfile.h"
#include "yaml/yaml.h"

namespace hintkit::resolver {

struct Options {
  // Where the provided values came from, for messages ("values.yaml"); spans come from nodes.
  std::string values_label = "values";
  // False keeps values out of messages (hook mode: helmfile echoes hook output into logs,
  // and values carry secrets).
  bool show_values = true;
};

// `provided` must be a map or null (no vars). Without a hint (`hint == nullptr`) the provided
// vars pass through as they are, the spec's backward compatibility.
yaml::Node resolve(const hintfile::HintFile* hint, const yaml::Node& provided,
                   diag::Diagnostics& diags, const Options& options = {});

}  // namespace hintkit::resolver
