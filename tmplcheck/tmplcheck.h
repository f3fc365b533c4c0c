// Checks the helmfile templates that use a manifest's vars against its hint, without running
// them: every reference to a var (`.Values.x`, `.StateValues.x`, `index .Values "x"`, ...)
// must name a declared var, used as its type allows; declared vars that no template uses are
// reported too. Parse only (gotmpl/), never execute.
//
// Where to start: `check_manifest(helmfile, hint, flavor, diags)` reads the helmfile that
// tazuna renders for a manifest (`resolver::helmfile_in(path)` finds it as tazuna does) and appends
// HK4xx diagnostics; `check_template(text, file, hint, flavor, usage, diags)` checks one text.
//
// Which files and which data (README, "Template references"): tazuna renders the manifest's
// helmfile file itself as one Go text/template with `missingkey=zero`, sprig's functions
// (without env and expandenv) plus toYaml, fromYaml, toJson, fromJson, and the data
// `{Values: vars, StateValues: vars, Environment: {Name: -e}}`; values files are read as plain
// YAML. helmfile renders a `.gotmpl` state file with its own function map and
// `{Environment: {Name, KubeContext, Values, ...}, Namespace, Values, StateValues}`, the state
// values being the vars (`--state-values-set`). `Flavor` picks one of these function maps and
// data shapes.
//
// How references are followed: the checker walks every branch (taken or not) tracking what dot
// and each variable stand for: the data, the vars map, one var (with its hint type), the
// environment, or something it cannot know. `with` and `range` move dot, `$` is the data,
// `$x := .Values` binds the map, `template "name" X` checks the define with dot = X, and the
// literal-key accessors of both function maps (`index`, helmfile's `get`/`getOrNil` with a
// dotted path, sprig's `get`/`sprigGet`, `hasKey`, `pluck`, `dig`, `pick`) are references.
// Handing the whole map to anything else (`toJson .Values`, `{{ .Values }}`, `range .Values`,
// a dynamic `index .Values $k`) counts as using every var.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diag/diag.h"
#include "hintfile/hintfile.h"

namespace hintkit::tmplcheck {

// Following `{{template "x" .}}` into defines: each (define, dot) pair is checked once; a chain
// of calls deeper than this is cut off (real helmfiles call a few helpers deep; a recursive
// define would otherwise never end).
inline constexpr int kMaxTemplateDepth = 32;
// A template larger than this is not read (HK010): helmfiles are kilobytes, and the checker
// keeps the whole text and its tree in memory.
inline constexpr size_t kMaxTemplateBytes = 16 * 1024 * 1024;

enum class Flavor {
  kTazuna,  // tazuna's in-process renderer (`lint --config`)
  kAny,     // tazuna's or helmfile's: the union of their function maps and data fields
};

// What the templates of one manifest use.
struct Usage {
  std::vector<bool> referenced;  // by the var's index in the hint's `vars`
  bool is_referenced(size_t var_index) const {
    return var_index < referenced.size() && referenced[var_index];
  }
  bool whole = false;  // the vars map was handed on whole (or a template did not parse)
};

// Checks one template text named `file` (for positions); adds what it uses to `usage`.
void check_template(std::string_view text, std::string_view file, const hintfile::HintFile& hint,
                    Flavor flavor, Usage& usage, diag::Diagnostics& diags);

// A warning (HK405) at each declared var that `usage` does not cover; `templates` names the
// files checked, for the message.
void report_unused(const hintfile::HintFile& hint, const Usage& usage, std::string_view templates,
                   diag::Diagnostics& diags);

// Reads `helmfile`, checks it and reports unused vars. An unreadable file is HK010.
void check_manifest(const std::string& helmfile, const hintfile::HintFile& hint, Flavor flavor,
                    diag::Diagnostics& diags);

// The functions a flavor's templates may call (for the parser, and for did-you-mean).
bool is_function(Flavor flavor, std::string_view name);

}  // namespace hintkit::tmplcheck
