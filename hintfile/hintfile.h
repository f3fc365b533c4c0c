// The `tazuna.hint.yaml` model, its loader and every schema-level check.
//
// Entry points: `load_file(path, diags)` reads and checks a hint file; `parse(source, file,
// diags)` does the same for text in memory. Every problem is appended to `diags` (in file
// order, each at its line:col, unknown names with a did-you-mean) and loading goes on, so one
// run reports them all; the returned `HintFile` holds whatever was valid. A hint with errors
// must not be used to resolve values: check `diags.has_errors()`.
//
// A hint file:
//   apiVersion: tazuna.pepabo.com/v1      # not validated
//   kind: TazunaHint                       # not validated
//   vars:                                  # required; may be {}
//     clusterName:
//       type: string                       # string | slice | map (required)
//       required: true
//       default: "prod"                    # must match the type (and format)
//       description: "…"
//       format: hostname                   # strings only; see formats/formats.h
//       required_with: [otherVar]          # required when any of these is provided
//       required_without: [otherVar]       # required when none of these is provided
//   rules:
//     - type: oneof_required               # at least one of vars must be provided
//       vars: [a, b]                       # two or more distinct, declared vars
//       message: "set a or b"
// Keys are exact-case; keys starting with `x-` are extensions and are ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "diag/diag.h"
#include "formats/formats.h"
#include "types/types.h"
#include "yaml/yaml.h"

namespace hintkit::hintfile {

inline constexpr std::string_view kFileName = "tazuna.hint.yaml";

enum class VarType { kString, kSlice, kMap };
std::string_view to_string(VarType t);
std::optional<VarType> parse_var_type(std::string_view name);

enum class RuleType { kOneofRequired };
std::string_view to_string(RuleType t);

// A var name used inside the file (required_with entries, rule vars), with its place.
struct Ref {
  std::string name;
  diag::Span span;
};

struct Var {
  std::string name;
  diag::Span span;              // the var's key
  std::optional<VarType> type;  // empty when missing or invalid (already reported)
  diag::Span type_span;
  bool required = false;
  diag::Span required_span;
  // As tazuna hands it on (yaml::go_json_any: keys as strings, numbers as float64);
  // `default: null` counts as no default.
  std::optional<yaml::Node> default_value;
  yaml::Kind default_written_kind = yaml::Kind::kNull;  // as YAML read it, for messages
  std::string description;
  std::optional<formats::Format> format;
  diag::Span format_span;
  std::vector<Ref> required_with;
  std::vector<Ref> required_without;

  // The shared type checker's view of this var's type (string = any non-null scalar).
  types::Type checker_type() const;
};

struct Rule {
  size_t index = 0;  // position in `rules`, for "rule[1]"
  std::optional<RuleType> type;
  diag::Span span;
  std::vector<Ref> vars;
  std::string message;  // empty: use the default message
};

struct HintFile {
  std::string path;
  std::vector<Var> vars;    // in file order
  std::vector<Rule> rules;  // in file order

  const Var* find(std::string_view name) const;
  std::vector<std::string> var_names() const;

 private:
  friend HintFile parse(std::string_view, std::string_view, diag::Diagnostics&);
  // Looked up by string_view (template references, values keys) without making a string.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> index_;
};

// Parses and checks hint text named `file`.
HintFile parse(std::string_view source, std::string_view file, diag::Diagnostics& diags);

// Reads `path` and parses it; an unreadable file is an `Error`.
diag::Result<HintFile> load_file(const std::string& path, diag::Diagnostics& diags);

// JSON Schemas (draft 2020-12; see json_schema.cpp for how hint semantics map onto it):
// the schema of one manifest's vars, for values files and editors, and the schema of the
// hint file format itself, for yaml-language-server.
yaml::Node vars_json_schema(const HintFile& hint, std::string_view title);
yaml::Node hint_file_json_schema();

// The hint file that belongs to a helmfile folder (`DIR/tazuna.hint.yaml`).
std::string path_in(std::string_view dir);

}  // namespace hintkit::hintfile
