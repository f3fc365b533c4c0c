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
// `resolve` takes the provided vars as a YAML map however they were obtained: a values file,
// the hook's JSON, or a tazuna.yaml manifest's var sources (tazuna.h, `provided_vars`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diag/diag.h"
#include "hintfile/hintfile.h"
#include "yaml/yaml.h"

namespace hintkit::resolver {

// `resolve --explain`: where each var's value came from and which checks ran on it.
enum class Origin {
  kProvided,     // the values given (values file, tazuna.yaml source, hook values)
  kDefault,      // the hint's `default`
  kZero,         // the zero value of the var's type
  kMissing,      // required and not provided: no value
  kPassThrough,  // not declared by the hint: passed on unchanged
};
std::string_view to_string(Origin o);

struct CheckRun {
  std::string name;  // "type string", "required", "required_with a, b", "format hostname",
                     // "rule[0] oneof_required"
  bool passed = true;
};

struct VarExplanation {
  std::string name;
  Origin origin = Origin::kProvided;
  diag::Span where;  // kProvided/kPassThrough: the value; kDefault: the default; else the var
  std::optional<yaml::Node> value;  // the resolved value; empty when kMissing
  std::vector<CheckRun> checks;
};

struct Options {
  // Where the provided values came from, for messages ("values.yaml"); spans come from nodes.
  std::string values_label = "values";
  // Values in messages (--show-values). Off, messages name the var, its place and what was
  // expected, never the value: values carry secrets (1Password, the environment), and messages
  // reach CI logs, SARIF uploads and helmfile's hook output.
  bool show_values = false;
  // When set, filled with one entry per var: declared vars in hint order, then pass-through.
  std::vector<VarExplanation>* explain = nullptr;
};

// `provided` must be a map or null (no vars). Without a hint (`hint == nullptr`) the provided
// vars pass through as they are, the spec's backward compatibility.
yaml::Node resolve(const hintfile::HintFile* hint, const yaml::Node& provided,
                   diag::Diagnostics& diags, const Options& options = {});

}  // namespace hintkit::resolver
