// The table of diagnostic codes; each has its section in docs/diagnostics.md (codes_test).
#include <string_view>
#include <utility>

#include "plugin/commands.h"

namespace hintkit::plugin {

std::string describe_code(std::string_view code) {
  static constexpr std::pair<std::string_view, std::string_view> kCodes[] = {
      {"HK001", "YAML syntax error"},
      {"HK002", "duplicate key in a mapping"},
      {"HK003", "a limit was exceeded (file size, nesting depth, alias expansion)"},
      {"HK004", "the input is not text (NUL bytes, control characters or invalid UTF-8)"},
      {"HK005",
       "tazuna's YAML-to-JSON conversion refuses the file (a null or uint64 key, .inf or .nan "
       "outside a text field)"},
      {"HK010", "a file could not be read"},
      {"HK011", "a file named like a hint file that tazuna never reads (tazuna.hint.yml, Tazuna.Hint.yaml)"},
      {"HK100", "the hint file is empty, not a mapping, or has several documents"},
      {"HK101", "the hint file has no vars"},
      {"HK102", "unknown key (with did-you-mean); x- keys are allowed"},
      {"HK103", "a field has the wrong kind of value (required: \"true\", vars: [..])"},
      {"HK104", "a var's type is missing or not string, slice or map"},
      {"HK105", "required: true together with a default"},
      {"HK106", "format on a var that is not a string"},
      {"HK107", "unknown format"},
      {"HK108", "required: true together with required_with / required_without"},
      {"HK109", "required_with / required_without names an undeclared var"},
      {"HK110", "a rule's type is missing or unknown"},
      {"HK111", "a rule lists fewer than two vars"},
      {"HK112", "a rule names an undeclared var"},
      {"HK113", "a rule lists the same var twice"},
      {"HK114", "a default does not have the var's type"},
      {"HK115", "a default fails the var's format"},
      {"HK116", "required_with lists the var itself (it never requires anything)"},
      {"HK200", "a required var is not provided"},
      {"HK201", "a provided value does not fit the var's type"},
      {"HK202", "required_with violated"},
      {"HK203", "required_without violated"},
      {"HK204", "a value fails the var's format"},
      {"HK205", "a oneof_required rule is violated"},
      {"HK206", "a provided key the hint does not declare looks like a misspelt var"},
      {"HK210", "the values are not a mapping (or hold several documents)"},
      {"HK301", "tazuna.yaml is empty, has no spec, or a wrong kind or apiVersion"},
      {"HK302", "unknown key in tazuna.yaml (with did-you-mean)"},
      {"HK303", "a tazuna.yaml field has the wrong kind of value"},
      {"HK304", "a var source has no from, or an unknown one"},
      {"HK305", "a from: env source has no env name"},
      {"HK306", "a from: static source sets none or several of static, staticSlice, staticMap"},
      {"HK307", "a from: op source has a missing or invalid op selector"},
      {"HK308", "an include has no path, or its file cannot be read"},
      {"HK309", "an included file has includes of its own (nested includes)"},
      {"HK310", "the environment variable of a from: env source is not set"},
      {"HK311", "a 1Password lookup failed (no op binary, op failed, bad JSON, unknown field)"},
      {"HK312", "the -e environment is not declared under spec.environments"},
      {"HK313", "a helmfile manifest's path does not exist"},
      {"HK314", "a helmfile manifest's folder has no helmfile"},
      {"HK315", "two manifests have the same name (after includes are expanded)"},
      {"HK316", "tazuna.yaml is not a valid Go template, or rendering it failed"},
      {"HK320", "a manifest declares a var its hint does not know"},
      {"HK321", "a required hint var has no declaration in the manifest"},
      {"HK322", "a declaration's shape cannot fit the hint type"},
      {"HK323", "tazuna's YAML 1.1 reading changes a scalar (static: 0755 -> \"493\"): quote it"},
      {"HK401", "a helmfile template does not parse, or calls an unknown function"},
      {"HK402", "a template references a var the hint does not declare (with did-you-mean)"},
      {"HK403", "a template reads a field below a string or slice var"},
      {"HK404", "a template ranges over a string var"},
      {"HK405", "a declared var that no template uses"},
      {"HK406", "a template reads a field the data lacks (.Valuess, .Environment.X)"},
  };
  for (const auto& [c, text] : kCodes) {
    if (c == code) return std::string(text);
  }
  return {};
}

}  // namespace hintkit::plugin
