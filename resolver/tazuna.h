// `tazuna.yaml`: the manifests of a cluster and where each helmfile var comes from.
//
// Entry points: `load_config(path, options, diags)` reads the config the way tazuna does:
// the text is rendered as a Go template first (`{{ .Environment }}`, see template.h; positions
// still point into the source), then decoded with tazuna's YAML 1.1 scalar conversions into
// string fields (yaml::go_string), then `includes` are expanded (an included file's manifests take
// the includer's place; their `path` stays relative to the root tazuna.yaml's folder, as
// tazuna joins it; nested includes and missing include files are errors), and finally the
// expanded set is checked: unique names, helmfile paths that exist and hold a helmfile.
// Unknown keys, unknown `from`, wrong value types and ambiguous static sources are
// diagnostics at line:col with a did-you-mean; problems in an included file name the chain.
// `provided_vars(manifest, env, diags)` turns a manifest's var sources into the provided-vars
// map that `resolve()` takes. The environment and 1Password lookups come in through
// `Environment`, so this module runs no processes itself (the CLI does).
//
//   apiVersion: tazuna.pepabo.com/v1
//   kind: Tazuna
//   spec:
//     manifests:
//       - name: api
//         type: helmfile                  # only helmfile manifests have vars
//         path: helmfile/api              # a helmfile folder, or a helmfile file
//         tags: [web]
//         helmfile:
//           vars:
//             clusterName: {from: env, env: CLUSTER_NAME}
//             region:      {from: static, static: ap-northeast-1}
//             zones:       {from: static, staticSlice: [a, c]}
//             labels:      {from: static, staticMap: {team: web}}
//             dbPassword:  {from: op, op: {key: label, vault: V, item: db, field: password}}
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diag.h"
#include "hintfile/hintfile.h"
#include "yaml/yaml.h"

namespace hintkit::resolver {

enum class SourceKind { kEnv, kStatic, kStaticSlice, kStaticMap, kOp };
std::string_view to_string(SourceKind k);  // "env", "static", "staticSlice", ...

// A 1Password field: `op --format json item get --vault=VAULT -- ITEM`, then the field whose
// `id` (key: id) or `label` (key: label) equals FIELD.
struct OpRef {
  std::string key;  // "id" or "label"
  std::string vault;
  std::string item;
  std::string field;
};

struct VarSource {
  std::string name;
  diag::Span span;  // the var's key in tazuna.yaml
  SourceKind kind = SourceKind::kStatic;
  std::string env;    // kEnv: the environment variable
  yaml::Node value;   // kStatic (as a string), kStaticSlice, kStaticMap
  OpRef op;           // kOp
  bool valid = true;  // false when the declaration had errors (already reported)
};

struct Include {
  std::string path;  // as written, relative to the root tazuna.yaml's folder
  diag::Span span;
};

struct Manifest {
  std::string name;
  std::string type;
  std::string path;  // as written, relative to the root config's folder
  std::vector<std::string> tags;
  std::vector<VarSource> vars;
  std::vector<Include> includes;  // before expansion only
  bool oras_helmfile = false;     // type: oras delegating to helmfile (vars, no local path)
  diag::Span span;
  diag::Span name_span;
  diag::Span path_span;
  // Empty for manifests of the root file; else "infra.yaml, included from tazuna.yaml:7:11".
  std::string origin;
  // The helmfile tazuna renders for a type: helmfile manifest, found once by load_config: the
  // path itself when it is a file, else the first of kHelmfileNames in the folder (joined with
  // the config's folder, normalised); "" when there is none (HK313, HK314).
  std::string helmfile;
  // The manifest has helmfile vars: type helmfile, or an ORAS artifact delegating to helmfile.
  bool has_vars() const { return type == "helmfile" || oras_helmfile; }
  // "manifest \"api\"" plus " (in infra.yaml, included from tazuna.yaml:7:11)" when included.
  std::string label() const;
};

struct LoadOptions {
  // `-e NAME`: `{{ .Environment }}` in templates, and it must be declared under
  // spec.environments. Empty: no environment (templates see "").
  std::string environment;
};

struct Config {
  std::string file;  // path of tazuna.yaml as given
  std::string dir;   // its folder, for manifest paths
  std::vector<Manifest> manifests;
  std::vector<std::string> environments;  // spec.environments, in source order
  // Where tazuna's YAML 1.1 conversion changes what the author wrote (`static: 0755` -> "493"):
  // warnings for `lint --config`; resolution hands the converted strings on, as tazuna does.
  diag::Diagnostics conversions;
};

// One config text (already rendered), without includes expanded or paths checked.
Config parse_config(std::string_view source, std::string_view file, diag::Diagnostics& diags);
// Reads, renders, decodes, expands includes and checks the result (see the top of this file).
// An unreadable root file or a template feature hintkit does not implement is an `Error`.
diag::Result<Config> load_config(const std::string& path, diag::Diagnostics& diags,
                                 const LoadOptions& options = {});

// The helmfile file names tazuna looks for in a folder, in its order.
inline constexpr std::string_view kHelmfileNames[] = {"helmfile.yaml.gotmpl", "helmfile.yaml",
                                                      "helmfile.yml.gotmpl", "helmfile.yml"};
// The helmfile tazuna renders for a manifest path: the path itself when it is a file, else the
// first of kHelmfileNames in the folder; "" when there is none.
std::string helmfile_in(std::string_view path);

// The folder whose `tazuna.hint.yaml` belongs to `m`: `path` itself when it is a folder, the
// file's folder when it is a helmfile file (the documented placement).
std::string hint_dir(const Config& config, const Manifest& m);

// Where var values come from; injected so tests and the CLI decide.
struct Environment {
  std::function<std::optional<std::string>(const std::string&)> getenv;
  // The field's value or why it could not be had (missing `op`, non-zero exit, bad JSON...).
  std::function<diag::Result<std::string>(const OpRef&)> op_field;
};

// The provided vars of `m` as a map, in declaration order. Sources that fail (unset env var,
// op failure) are diagnostics naming the var; they are left out of the map.
yaml::Node provided_vars(const Manifest& m, const Environment& env, diag::Diagnostics& diags);

// Picks the field out of `op item get --format json` output.
diag::Result<std::string> pick_op_field(std::string_view json, const OpRef& ref);

// Cross-checks a manifest's declarations against its hint, for `lint --config`: declared vars
// the hint does not know (warning), required hint vars with no declaration (error), static
// shapes that cannot fit the hint type (error).
void check_declarations(const Manifest& m, const hintfile::HintFile& hint, const Config& config,
                        diag::Diagnostics& diags);

}  // namespace hintkit::resolver
