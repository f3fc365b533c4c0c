// `tazuna.yaml`: the manifests of a cluster and where each helmfile var comes from.
//
// Entry points: `parse_config(source, file, diags)` reads the config (unknown keys, unknown
// `from`, wrong value types and ambiguous static sources are diagnostics at line:col with a
// did-you-mean); `provided_vars(manifest, env, diags)` turns a manifest's var sources into
// the provided-vars map that `resolve()` takes. The environment and 1Password lookups come
// in through `Environment`, so this module runs no processes itself (the CLI does).
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

// A 1Password field: `op --format json item get --vault VAULT ITEM`, then the field whose
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

struct Manifest {
  std::string name;
  std::string type;
  std::string path;  // as written, relative to the config's folder
  std::vector<std::string> tags;
  std::vector<VarSource> vars;
  diag::Span span;
  diag::Span path_span;
};

struct Config {
  std::string file;  // path of tazuna.yaml as given
  std::string dir;   // its folder, for manifest paths
  std::vector<Manifest> manifests;
};

Config parse_config(std::string_view source, std::string_view file, diag::Diagnostics& diags);
diag::Result<Config> load_config(const std::string& path, diag::Diagnostics& diags);

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
