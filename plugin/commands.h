// Internal: the subcommands' options and entry points, shared by cli.cpp and their own files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diag/diag.h"
#include "plugin/plugin.h"

namespace hintkit::plugin {

inline constexpr unsigned kDefaultOpTimeoutSeconds = 60;

struct LintOptions {
  std::vector<std::string> paths;
  std::string config;       // --config tazuna.yaml: lint every helmfile manifest's hint
  std::string environment;  // -e NAME: tazuna.yaml's {{ .Environment }}
  std::string format = "text";
  bool warnings_as_errors = false;
  unsigned jobs = 0;  // 0: hardware threads
};
int run_lint(const LintOptions& o, Io io);
// Renders lint findings in o.format, then "checked <checked>: N errors, M warnings";
// returns the exit code.
int report_lint(Io io, const LintOptions& o, diag::Diagnostics& all, const std::string& checked);

struct ResolveOptions {
  std::string config;       // --config tazuna.yaml: resolve every helmfile manifest
  std::string environment;  // -e NAME: tazuna.yaml's {{ .Environment }}
  std::vector<std::string> manifests;
  std::string tags;
  std::string out_dir;
  unsigned jobs = 0;
  // 1Password lookups can wait on a network and on a human unlocking a vault, not forever.
  unsigned op_timeout = kDefaultOpTimeoutSeconds;
  std::string dir;
  std::string hint;
  std::string values;
  std::string output = "yaml";
  std::string format = "text";
  bool explain = false;      // --explain: where each value came from and what was checked
  bool show_values = false;  // values in messages and --explain (off: they may be secrets)
};
int run_resolve(const ResolveOptions& o, Io io);

int run_resolve_config(const ResolveOptions& o, Io io);
int run_lint_config(const LintOptions& o, Io io);

struct HookOptions {
  std::string event;  // presync | prepare
  std::string dir = ".";
  std::string values_json;
  bool values_json_given = false;  // --values-json "" is given, and empty
  std::string values_file;
  bool show_values = false;
};
int run_hook(const HookOptions& o, Io io);

struct DescribeOptions {
  std::string target;
  std::string output = "text";
};
int run_describe(const DescribeOptions& o, Io io);

// `hintkit schema KIND`: a JSON Schema for editors (today: `hint-file`).
int run_schema(const std::string& kind, Io io);

// `hintkit values ARGS...`: ytt's flags (args after `values`), ytt's output and exit codes.
int run_values(const std::vector<std::string>& args, Io io);
// `hintkit values --help`'s text (ytt's flags are not CLI11's: the man page prints this).
std::string values_help();

// "dir" + "tazuna.hint.yaml" without a leading "./" so messages name files as users do.
std::string join_file(const std::string& dir, std::string_view name);

// One-line description of a diagnostic code (README's table), "" when unknown.
std::string describe_code(std::string_view code);

// "1 helmfile manifest", "2 helmfile manifests".
std::string count_of(size_t n, std::string_view singular);

// The repository a run is in, for SARIF's %SRCROOT%: the nearest folder upward from the
// current one that holds .git, else the current folder.
std::string repository_root();

// Renderer options for diagnostics written to `to` (io.out or io.err): tool version, rule
// descriptions (SARIF) and colour (text, per --color and whether `to` is a terminal).
diag::RenderOptions render_options(const Io& io, const std::ostream& to);

// Prints an operation failure as `hintkit: message` and returns kExitUsage.
int fail(Io io, const std::string& message);

}  // namespace hintkit::plugin
