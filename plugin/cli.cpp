// Command-line wiring: CLI11 apps for each subcommand, help texts with examples.
#include <CLI/CLI.hpp>
#include <ostream>
#include <sstream>

#include "lsp/lsp.h"
#include "plugin/commands.h"

#ifndef HINTKIT_VERSION
#define HINTKIT_VERSION "0.0.0"
#endif

namespace hintkit::plugin {

std::string version() { return HINTKIT_VERSION; }

std::string join_file(const std::string& dir, std::string_view name) {
  if (dir.empty() || dir == "." || dir == "./") return std::string(name);
  std::string p = dir;
  if (p.back() != '/') p += '/';
  return p + std::string(name);
}

std::string count_of(size_t n, std::string_view singular) {
  return std::to_string(n) + " " + std::string(singular) + (n == 1 ? "" : "s");
}

diag::RenderOptions render_options() {
  diag::RenderOptions options;
  options.tool_version = version();
  options.describe_code = describe_code;
  return options;
}

int fail(Io io, const std::string& message) {
  io.err << "hintkit: " << message << '\n';
  return kExitUsage;
}

namespace {

const char* kDescription =
    "hintkit catches configuration mistakes before a Kubernetes deploy.\n"
    "It lints tazuna.hint.yaml files, resolves helmfile manifest vars against them (also\n"
    "for a whole tazuna.yaml and as a helmfile hook), and checks ytt data values schemas.";

const char* kLintFooter =
    "Folders are searched recursively for tazuna.hint.yaml (.git and node_modules are\n"
    "skipped); files are checked as given. Every problem of every file is reported.\n\n"
    "Examples:\n"
    "  hintkit lint                       # every hint file under the current folder\n"
    "  hintkit lint deploy/ --format sarif > hintkit.sarif\n"
    "  hintkit lint --format github       # annotations in a GitHub Actions log\n\n"
    "Exit: 0 no errors, 1 errors found, 2 usage or I/O error.";

const char* kResolveFooter =
    "A var is provided when its key is present with a non-null value. Declared vars are\n"
    "printed in hint order (provided, default or zero value), then vars the hint does not\n"
    "declare. Violations go to stderr and exit 1; nothing is printed on stdout then.\n"
    "With --dir and no tazuna.hint.yaml in it, the values pass through unchanged.\n\n"
    "With --config, every helmfile manifest of tazuna.yaml is resolved from its var sources\n"
    "(env, static, staticSlice, staticMap, op) and printed as manifest -> vars; --out-dir\n"
    "writes one state values file per manifest instead, only when every manifest passes.\n\n"
    "Examples:\n"
    "  hintkit resolve --dir charts/api --values vars.yaml\n"
    "  hintkit resolve --config tazuna.yaml --out-dir .hintkit\n"
    "  helmfile-vars | hintkit resolve --hint tazuna.hint.yaml --values - -o json\n"
    "  hintkit resolve --dir charts/api --values vars.yaml --explain   # where values came from\n\n"
    "Exit: 0 resolved, 1 violations or an invalid hint, 2 usage or I/O error.";

const char* kHookFooter =
    "Wire it per release in helmfile.yaml (helmfile runs hooks in the helmfile's folder):\n\n"
    "  hooks:\n"
    "    - events: [presync]\n"
    "      showlogs: true\n"
    "      command: hintkit\n"
    "      args: [hook, presync, --values-json, '{{ .Values | toJson }}']\n\n"
    "helmfile renders hook args once, so in helmfile.yaml the expression is written as is.\n"
    "In helmfile.yaml.gotmpl the whole file is rendered once more before, so escape it:\n"
    "'{{`{{ .Values | toJson }}`}}'. --values-json is strict JSON: an unrendered template,\n"
    "an empty argument, null, a list or a scalar stop the hook with exit 2.\n\n"
    "No tazuna.hint.yaml in --dir: exit 0 (a --dir that does not exist: exit 2). Values are\n"
    "never printed unless --show-values.\n\n"
    "Exit: 0 values fit the hint, 1 violations (listed on stderr), 2 malformed JSON or flags.";

const char* kDescribeFooter =
    "Prints the vars sorted by name with type, format, whether they are required,\n"
    "optional or conditional, description, default and conditions; then the rules.\n\n"
    "Examples:\n"
    "  hintkit describe charts/api\n"
    "  hintkit describe charts/api/tazuna.hint.yaml -o json\n"
    "  hintkit describe charts/api -o json-schema > charts/api/values.schema.json\n\n"
    "-o json-schema prints a JSON Schema (draft 2020-12) of the manifest's vars for editors\n"
    "and validators; README \"JSON Schemas\" lists the hint rules it cannot express.\n\n"
    "Exit: 0 described, 1 the hint has errors, 2 usage or I/O error.";

const char* kLspFooter =
    "Speaks the Language Server Protocol on stdin/stdout for tazuna.hint.yaml (everything\n"
    "lint reports), tazuna.yaml (lint --config, against the hints on disk or open) and ytt\n"
    "data values files (hintkit values on the file's folder). README \"Editors\" shows the\n"
    "Neovim and VS Code set-up.\n\n"
    "Exit: 0 after shutdown and exit, 1 when the client goes away without shutdown.";

const char* kSchemaFooter =
    "Prints a JSON Schema (draft 2020-12). `hint-file` is the schema of tazuna.hint.yaml\n"
    "itself: point yaml-language-server at it to validate and complete hint files, e.g.\n"
    "with a first line `# yaml-language-server: $schema=./hint.schema.json`.\n\n"
    "Examples:\n"
    "  hintkit schema hint-file > hint.schema.json\n"
    "  hintkit describe charts/api -o json-schema   # the schema of one manifest's vars\n\n"
    "Exit: 0 printed, 2 usage error.";

}  // namespace

int run(const std::vector<std::string>& args, Io io) {
  // `values` parses ytt's flags itself: building the other commands' parser first cost more
  // than a small values run's own argument handling.
  if (args.size() > 1 && args[1] == "values") {
    return run_values(std::vector<std::string>(args.begin() + 2, args.end()), io);
  }
  CLI::App app{kDescription, "hintkit"};
  app.set_version_flag("--version", HINTKIT_VERSION);
  app.require_subcommand(1);
  app.footer("Run `hintkit COMMAND --help` for a command's options and examples.");

  LintOptions lint;
  CLI::App* lint_cmd =
      app.add_subcommand("lint", "Check tazuna.hint.yaml files for every schema problem");
  lint_cmd->add_option("paths", lint.paths, "Hint files or folders to search (default: .)");
  lint_cmd->add_option("--config,-c", lint.config,
                       "tazuna.yaml: lint each helmfile manifest's hint and its var declarations");
  lint_cmd
      ->add_option(
          "--environment,-e", lint.environment,
          "With --config: the environment tazuna.yaml is rendered for ({{ .Environment }})")
      ->needs(lint_cmd->get_option("--config"));
  lint_cmd->add_option("--format,-f", lint.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}))
      ->default_str("text");
  lint_cmd->add_flag("--warnings-as-errors", lint.warnings_as_errors, "Exit 1 on warnings too");
  lint_cmd->add_option("--jobs,-j", lint.jobs, "Parallel workers (default: hardware threads)");
  lint_cmd->footer(kLintFooter);

  ResolveOptions resolve;
  CLI::App* resolve_cmd =
      app.add_subcommand("resolve", "Resolve a manifest's vars against its tazuna.hint.yaml");
  auto* config_opt = resolve_cmd->add_option(
      "--config,-c", resolve.config, "tazuna.yaml: resolve every helmfile manifest it lists");
  resolve_cmd
      ->add_option("--environment,-e", resolve.environment,
                   "The environment tazuna.yaml is rendered for ({{ .Environment }}); it must be "
                   "declared under spec.environments")
      ->needs(config_opt);
  resolve_cmd->add_option("--manifest,-m", resolve.manifests, "Only these manifests (repeatable)")
      ->needs(config_opt);
  resolve_cmd->add_option("--tags", resolve.tags, "Only manifests with any of these tags (a,b)")
      ->needs(config_opt);
  resolve_cmd
      ->add_option("--out-dir", resolve.out_dir,
                   "Write DIR/<manifest>.yaml state values files (all or nothing)")
      ->needs(config_opt);
  resolve_cmd->add_option("--jobs,-j", resolve.jobs,
                          "Parallel workers (default: hardware threads)");
  resolve_cmd
      ->add_option("--op-timeout", resolve.op_timeout,
                   "Seconds before an `op` call is stopped (default: 60)")
      ->check(CLI::Range(1u, 3600u))
      ->needs(config_opt);
  auto* dir_opt = resolve_cmd->add_option(
      "--dir,-d", resolve.dir, "Helmfile folder holding tazuna.hint.yaml (optional file)");
  auto* hint_opt = resolve_cmd->add_option("--hint", resolve.hint, "Hint file (must exist)");
  dir_opt->excludes(hint_opt);
  config_opt->excludes(dir_opt)->excludes(hint_opt);
  auto* values_opt = resolve_cmd->add_option("--values", resolve.values,
                                             "YAML/JSON map of provided vars; - for stdin");
  values_opt->excludes(config_opt);
  resolve_cmd->add_option("--output,-o", resolve.output, "Resolved vars as yaml or json")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->default_str("yaml");
  resolve_cmd->add_option("--format", resolve.format, "Diagnostics format on stderr")
      ->check(CLI::IsMember({"text", "json", "sarif", "github"}))
      ->default_str("text");
  resolve_cmd->add_flag("--explain", resolve.explain,
                        "Print where each var's value came from and the checks that ran on it "
                        "(text, or json with -o json) instead of the values");
  resolve_cmd->add_flag("--show-values", resolve.show_values,
                        "With --explain, print the values too (off: values may be secrets)");
  resolve_cmd->footer(kResolveFooter);

  HookOptions hook;
  CLI::App* hook_cmd = app.add_subcommand(
      "hook", "Check a release's values as a helmfile hook (presync or prepare event)");
  hook_cmd->add_option("event", hook.event, "presync or prepare")
      ->required()
      ->check(CLI::IsMember({"presync", "prepare"}));
  hook_cmd->add_option("--dir,-d", hook.dir, "Folder holding tazuna.hint.yaml (default: .)");
  auto* json_opt = hook_cmd->add_option("--values-json", hook.values_json,
                                        "The release's values: '{{ .Values | toJson }}'");
  auto* file_opt = hook_cmd->add_option("--values-file", hook.values_file, "Values as a file");
  json_opt->excludes(file_opt);
  hook_cmd->add_flag("--show-values", hook.show_values,
                     "Print resolved values and include values in messages (off: secrets)");
  hook_cmd->footer(kHookFooter);

  DescribeOptions describe;
  CLI::App* describe_cmd =
      app.add_subcommand("describe", "Explain the vars and rules a hint file declares");
  describe_cmd->add_option("target", describe.target, "Helmfile folder or hint file")->required();
  describe_cmd->add_option("--output,-o", describe.output, "text, yaml, json or json-schema")
      ->check(CLI::IsMember({"text", "yaml", "json", "json-schema"}))
      ->default_str("text");
  describe_cmd->footer(kDescribeFooter);

  std::string schema_kind;
  CLI::App* schema_cmd =
      app.add_subcommand("schema", "Print a JSON Schema for editors (hint-file)");
  schema_cmd->add_option("kind", schema_kind, "hint-file: the tazuna.hint.yaml format")
      ->required()
      ->check(CLI::IsMember({"hint-file"}));
  schema_cmd->footer(kSchemaFooter);

  CLI::App* lsp_cmd = app.add_subcommand(
      "lsp", "Language server over stdio: diagnostics, hover, completion, code actions");
  lsp_cmd->footer(kLspFooter);

  // `values` takes ytt's own flags verbatim (ytt v0.48.0 compatible); see schema/schema.h.
  // It is dispatched before the command line above is built (see the top of this function).
  app.add_subcommand("values", "Data values schema engine, ytt-compatible (ytt's flags)")
      ->prefix_command();

  std::vector<std::string> rest(args.size() > 1 ? args.begin() + 1 : args.end(), args.end());
  std::reverse(rest.begin(), rest.end());  // CLI11 consumes a reversed vector
  try {
    app.parse(rest);
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    int code = app.exit(e, out, err);
    io.out << out.str();
    io.err << err.str();
    // --help and --version are successes; everything else is a usage error.
    return code == 0 ? kExitClean : kExitUsage;
  }

  if (lint_cmd->parsed() && lint.config.empty()) return run_lint(lint, io);
  if (lint_cmd->parsed() && !lint.config.empty()) return run_lint_config(lint, io);
  if (hook_cmd->parsed()) {
    hook.values_json_given = json_opt->count() > 0;
    return run_hook(hook, io);
  }
  if (resolve_cmd->parsed()) {
    if (!resolve.config.empty()) return run_resolve_config(resolve, io);
    if (resolve.dir.empty() && resolve.hint.empty()) {
      return fail(io,
                  "resolve: give --dir DIR, --hint FILE or --config tazuna.yaml (see hintkit "
                  "resolve --help)");
    }
    if (resolve.values.empty())
      return fail(io, "resolve: --values FILE is required with --dir or --hint");
    return run_resolve(resolve, io);
  }
  if (describe_cmd->parsed()) return run_describe(describe, io);
  if (schema_cmd->parsed()) return run_schema(schema_kind, io);
  if (lsp_cmd->parsed()) return lsp::serve(0, 1);
  return fail(io, "no command given (see hintkit --help)");
}

}  // namespace hintkit::plugin
