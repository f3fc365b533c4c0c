// Command-line wiring: CLI11 apps for each subcommand, help texts with examples. The same
// definitions give the shell completion scripts and the man page (`cli_spec()`), and the
// did-you-mean for a mistyped command, flag or value.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>
#include <utility>

#include "lsp/lsp.h"
#include "plugin/cli_spec.h"
#include "plugin/commands.h"
#include "plugin/terminal.h"
#include "ytt/cmd/cmd.h"

#ifndef HINTKIT_VERSION
#define HINTKIT_VERSION "0.0.0"
#endif
#ifndef HINTKIT_DIAGNOSTICS_URL
#define HINTKIT_DIAGNOSTICS_URL ""
#endif

namespace hintkit::plugin {

namespace fs = std::filesystem;

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

std::string repository_root() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) return {};
  for (fs::path dir = cwd;; dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec)) return dir.string();
    if (dir == dir.parent_path()) break;
  }
  return cwd.string();
}

diag::RenderOptions render_options(const Io& io, const std::ostream& to) {
  diag::RenderOptions options;
  options.tool_version = version();
  options.describe_code = describe_code;
  options.source_root = repository_root();
  options.help_uri_base = HINTKIT_DIAGNOSTICS_URL;
  options.color = colorize(io, to);
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
    "skipped); files are checked as given, and - reads a hint file from standard input.\n"
    "Every problem of every file is reported. Files named like a hint file that tazuna\n"
    "never reads (tazuna.hint.yml, Tazuna.Hint.yaml, tazuna-hint.yaml) are warned of.\n"
    "Finding no hint file at all is exit 2: a check that checked nothing is not a pass.\n\n"
    "Examples:\n"
    "  hintkit lint                       # every hint file under the current folder\n"
    "  hintkit lint deploy/ --format sarif > hintkit.sarif\n"
    "  hintkit lint --format github       # annotations in a GitHub Actions log\n"
    "  generate-hint | hintkit lint -     # a hint file on standard input\n\n"
    "Exit: 0 no errors, 1 errors found, 2 usage or I/O error, or no hint file found.";

const char* kResolveFooter =
    "A var is provided when its key is present with a non-null value. Declared vars are\n"
    "printed in hint order (provided, default or zero value), then vars the hint does not\n"
    "declare. Violations go to stderr and exit 1; nothing is printed on stdout then.\n"
    "With --dir and no tazuna.hint.yaml in it, the values pass through unchanged.\n"
    "Messages name a var and its place, never its value, unless --show-values.\n\n"
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

const char* kCompletionFooter =
    "Prints a completion script for the shell: commands, flags, the values of flags with a\n"
    "fixed set of values, and file names where a file is expected. The Debian package and\n"
    "`cmake --install` put the scripts where each shell finds them.\n\n"
    "Examples:\n"
    "  source <(hintkit completion bash)                 # this bash session\n"
    "  hintkit completion bash > ~/.local/share/bash-completion/completions/hintkit\n"
    "  hintkit completion zsh > \"${fpath[1]}/_hintkit\"\n"
    "  hintkit completion fish > ~/.config/fish/completions/hintkit.fish\n\n"
    "Exit: 0 printed, 2 usage error.";

const char* kColorDescription =
    "Colour in text diagnostics: auto (only on a terminal, and not when NO_COLOR is set), "
    "always or never";

const std::vector<std::string> kDiagnosticFormats = {"text", "json", "sarif", "github"};
const std::vector<std::string> kColorModes = {"auto", "always", "never"};

// The hidden command that prints the man page at build time (plugin/CMakeLists.txt).
constexpr const char* kManPageCommand = "__man-page";

std::string quoted_list(const std::vector<std::string>& values) {
  std::string s;
  for (const std::string& v : values) s += (s.empty() ? "" : ", ") + diag::in_quotes(v);
  return s;
}

// Every command's CLI11 definition, bound to the options its entry point takes. The value
// kinds and closed sets beside them are what completion offers.
struct CommandLine {
  CLI::App app{kDescription, "hintkit"};
  std::string color = "auto";
  LintOptions lint;
  std::vector<std::string> lint_files;  // -f FILE: joins the positional paths
  ResolveOptions resolve;
  HookOptions hook;
  DescribeOptions describe;
  std::string describe_file;  // -f FILE: the target, as kubectl describe -f
  std::string schema_kind;
  std::string shell;
  CLI::App* lint_cmd = nullptr;
  CLI::App* resolve_cmd = nullptr;
  CLI::App* hook_cmd = nullptr;
  CLI::App* describe_cmd = nullptr;
  CLI::App* schema_cmd = nullptr;
  CLI::App* lsp_cmd = nullptr;
  CLI::App* completion_cmd = nullptr;
  CLI::App* version_cmd = nullptr;
  CLI::App* values_cmd = nullptr;
  CLI::App* man_cmd = nullptr;
  CLI::Option* json_opt = nullptr;
  std::map<const CLI::Option*, ValueKind> kinds;
  std::map<const CLI::Option*, std::vector<std::string>> choices;

  CommandLine();

  // An option whose value is one of `values`; a wrong value gets a did-you-mean.
  CLI::Option* choice(CLI::App* cmd, const std::string& name, std::string& var,
                      const std::vector<std::string>& values, const std::string& description) {
    CLI::Option* o = cmd->add_option(name, var, description);
    o->check(CLI::Validator(
        [values](std::string& v) -> std::string {
          if (std::find(values.begin(), values.end(), v) != values.end()) return {};
          std::string msg = diag::in_quotes(v) + " is not one of " + quoted_list(values);
          if (auto n = diag::nearest(v, values)) msg += "; did you mean " + diag::in_quotes(*n) + "?";
          return msg;
        },
        "{" + [&] {
          std::string s;
          for (const std::string& v : values) s += (s.empty() ? "" : ",") + v;
          return s;
        }() + "}"));
    kinds[o] = ValueKind::kChoice;
    choices[o] = values;
    return o;
  }

  template <typename T>
  CLI::Option* value(CLI::App* cmd, const std::string& name, T& var, ValueKind kind,
                     const std::string& description) {
    CLI::Option* o = cmd->add_option(name, var, description);
    kinds[o] = kind;
    if (kind == ValueKind::kFile) o->type_name("FILE");
    if (kind == ValueKind::kDir) o->type_name("DIR");
    if (kind == ValueKind::kPath) o->type_name("PATH");
    return o;
  }
};

CommandLine::CommandLine() {
  app.set_version_flag("--version", "hintkit " + version(), "Print hintkit's version and exit");
  app.require_subcommand(1);
  app.fallthrough();  // --color is read after the command too: `hintkit lint --color never`
  app.footer("Run `hintkit COMMAND --help` for a command's options and examples.");
  choice(&app, "--color", color, kColorModes, kColorDescription)->default_str("auto");

  lint_cmd = app.add_subcommand("lint", "Check tazuna.hint.yaml files for every schema problem");
  value(lint_cmd, "paths", lint.paths, ValueKind::kPath,
        "Hint files or folders to search (default: .); - reads stdin");
  value(lint_cmd, "--file,-f", lint_files, ValueKind::kPath,
        "A hint file or folder to check (repeatable; as the positional paths)");
  value(lint_cmd, "--config,-c", lint.config, ValueKind::kFile,
        "tazuna.yaml: lint each helmfile manifest's hint and its var declarations");
  value(lint_cmd, "--environment,-e", lint.environment, ValueKind::kText,
        "With --config: the environment tazuna.yaml is rendered for ({{ .Environment }})")
      ->needs(lint_cmd->get_option("--config"));
  choice(lint_cmd, "--format", lint.format, kDiagnosticFormats, "Output format")
      ->default_str("text");
  lint_cmd->add_flag("--warnings-as-errors", lint.warnings_as_errors, "Exit 1 on warnings too");
  value(lint_cmd, "--jobs,-j", lint.jobs, ValueKind::kText,
        "Parallel workers (default: hardware threads)");
  lint_cmd->footer(kLintFooter);

  resolve_cmd =
      app.add_subcommand("resolve", "Resolve a manifest's vars against its tazuna.hint.yaml");
  auto* config_opt = value(resolve_cmd, "--config,-c", resolve.config, ValueKind::kFile,
                           "tazuna.yaml: resolve every helmfile manifest it lists");
  value(resolve_cmd, "--environment,-e", resolve.environment, ValueKind::kText,
        "The environment tazuna.yaml is rendered for ({{ .Environment }}); it must be "
        "declared under spec.environments")
      ->needs(config_opt);
  value(resolve_cmd, "--manifest,-m", resolve.manifests, ValueKind::kText,
        "Only these manifests (repeatable)")
      ->needs(config_opt);
  value(resolve_cmd, "--tags", resolve.tags, ValueKind::kText,
        "Only manifests with any of these tags (a,b)")
      ->needs(config_opt);
  value(resolve_cmd, "--out-dir", resolve.out_dir, ValueKind::kDir,
        "Write DIR/<manifest>.yaml state values files (all or nothing)")
      ->needs(config_opt);
  value(resolve_cmd, "--jobs,-j", resolve.jobs, ValueKind::kText,
        "Parallel workers (default: hardware threads)");
  value(resolve_cmd, "--op-timeout", resolve.op_timeout, ValueKind::kText,
        "Seconds before an `op` call is stopped (default: 60)")
      ->check(CLI::Range(1u, 3600u))
      ->needs(config_opt);
  auto* dir_opt = value(resolve_cmd, "--dir,-d", resolve.dir, ValueKind::kDir,
                        "Helmfile folder holding tazuna.hint.yaml (optional file)");
  auto* hint_opt =
      value(resolve_cmd, "--hint", resolve.hint, ValueKind::kFile, "Hint file (must exist)");
  dir_opt->excludes(hint_opt);
  config_opt->excludes(dir_opt)->excludes(hint_opt);
  auto* values_opt = value(resolve_cmd, "--values,-f", resolve.values, ValueKind::kFile,
                           "YAML/JSON map of provided vars; - for stdin (-f as helm's)");
  values_opt->excludes(config_opt);
  choice(resolve_cmd, "--output,-o", resolve.output, {"yaml", "json"}, "Resolved vars as yaml or json")
      ->default_str("yaml");
  choice(resolve_cmd, "--format", resolve.format, kDiagnosticFormats,
         "Diagnostics format on stderr")
      ->default_str("text");
  resolve_cmd->add_flag("--explain", resolve.explain,
                        "Print where each var's value came from and the checks that ran on it "
                        "(text, or json with -o json) instead of the values");
  resolve_cmd->add_flag("--show-values", resolve.show_values,
                        "Quote values in messages and print them with --explain (off: values "
                        "may be secrets)");
  resolve_cmd->footer(kResolveFooter);

  hook_cmd = app.add_subcommand(
      "hook", "Check a release's values as a helmfile hook (presync or prepare event)");
  choice(hook_cmd, "event", hook.event, {"presync", "prepare"}, "presync or prepare")->required();
  value(hook_cmd, "--dir,-d", hook.dir, ValueKind::kDir,
        "Folder holding tazuna.hint.yaml (default: .)");
  json_opt = value(hook_cmd, "--values-json", hook.values_json, ValueKind::kText,
                   "The release's values: '{{ .Values | toJson }}'");
  auto* file_opt = value(hook_cmd, "--values-file,-f", hook.values_file, ValueKind::kFile,
                         "Values as a file (-f as helm's)");
  json_opt->excludes(file_opt);
  hook_cmd->add_flag("--show-values", hook.show_values,
                     "Print resolved values and include values in messages (off: secrets)");
  hook_cmd->footer(kHookFooter);

  describe_cmd = app.add_subcommand("describe", "Explain the vars and rules a hint file declares");
  auto* target_opt = value(describe_cmd, "target", describe.target, ValueKind::kPath,
                           "Helmfile folder or hint file");
  auto* describe_file_opt = value(describe_cmd, "--file,-f", describe_file, ValueKind::kPath,
                                  "Helmfile folder or hint file (instead of the positional)");
  target_opt->excludes(describe_file_opt);
  choice(describe_cmd, "--output,-o", describe.output, {"text", "yaml", "json", "json-schema"},
         "text, yaml, json or json-schema")
      ->default_str("text");
  describe_cmd->footer(kDescribeFooter);

  schema_cmd = app.add_subcommand("schema", "Print a JSON Schema for editors (hint-file)");
  choice(schema_cmd, "kind", schema_kind, {"hint-file"}, "hint-file: the tazuna.hint.yaml format")
      ->required();
  schema_cmd->footer(kSchemaFooter);

  lsp_cmd = app.add_subcommand(
      "lsp", "Language server over stdio: diagnostics, hover, completion, code actions");
  lsp_cmd->footer(kLspFooter);

  completion_cmd =
      app.add_subcommand("completion", "Print a shell completion script (bash, zsh or fish)");
  choice(completion_cmd, "shell", shell,
         std::vector<std::string>(std::begin(kCompletionShells), std::end(kCompletionShells)),
         "bash, zsh or fish")
      ->required();
  completion_cmd->footer(kCompletionFooter);

  version_cmd = app.add_subcommand("version", "Print hintkit's version");
  version_cmd->footer("Prints `hintkit VERSION`, as `hintkit --version` does.\n\nExit: 0.");

  // `values` takes ytt's own flags verbatim (ytt v0.48.0 compatible); see ytt/cmd/cmd.h.
  // It is dispatched before the command line above is built (see run()).
  values_cmd =
      app.add_subcommand("values", "Data values schema engine, ytt-compatible (ytt's flags)");
  values_cmd->prefix_command();

  man_cmd = app.add_subcommand(kManPageCommand, "");
  man_cmd->group("");  // hidden: the build runs it, users read `man hintkit`
}

bool visible(const CLI::App* cmd) { return !cmd->get_group().empty(); }

std::vector<std::string> command_names(const CommandLine& cl) {
  std::vector<std::string> out;
  for (const CLI::App* sub : cl.app.get_subcommands({})) {
    if (visible(sub)) out.push_back(sub->get_name());
  }
  return out;
}

// The command word of `rest` (the arguments after the program name) when no command has
// that name: `unknown command "lnit"; did you mean "lint"?`. Global options and their values
// before the command are skipped as CLI11 reads them.
std::optional<std::string> unknown_command(const CommandLine& cl,
                                           const std::vector<std::string>& rest) {
  for (size_t i = 0; i < rest.size(); ++i) {
    const std::string& w = rest[i];
    if (w == "--") return std::nullopt;
    if (w.size() > 1 && w[0] == '-') {
      if (w.find('=') != std::string::npos) continue;
      const CLI::Option* o = cl.app.get_option_no_throw(w);
      if (o != nullptr && o->get_items_expected_max() > 0) ++i;  // its value
      continue;
    }
    for (const CLI::App* sub : cl.app.get_subcommands({})) {
      if (sub->check_name(w)) return std::nullopt;
    }
    std::string msg = "unknown command " + diag::in_quotes(w);
    if (auto n = diag::nearest(w, command_names(cl))) {
      return msg + "; did you mean " + diag::in_quotes(*n) + "?";
    }
    return msg + " (see hintkit --help)";
  }
  return std::nullopt;
}

// The long flags a command takes, with its parents' (--color, --version, --help).
std::vector<std::string> long_flags(const CLI::App* cmd) {
  std::vector<std::string> out;
  for (; cmd != nullptr; cmd = cmd->get_parent()) {
    for (const CLI::Option* o : cmd->get_options()) {
      for (const std::string& n : o->get_lnames()) out.push_back("--" + n);
    }
  }
  return out;
}

// After CLI11's "arguments were not expected": the first unknown flag, named with the
// nearest flag the command takes; nullopt when what is left over is not a flag.
std::optional<std::string> unknown_flag(CommandLine& cl) {
  CLI::App* cmd = &cl.app;
  std::vector<std::string> extras = cl.app.remaining();
  for (CLI::App* sub : cl.app.get_subcommands()) {
    cmd = sub;
    for (std::string& r : sub->remaining()) extras.push_back(std::move(r));
  }
  for (const std::string& e : extras) {
    if (e.size() < 2 || e[0] != '-') continue;
    const std::string flag = e.substr(0, e.find('='));
    const std::string where = cmd == &cl.app ? "" : cmd->get_name() + ": ";
    std::string msg = where + "unknown flag " + diag::in_quotes(flag);
    if (flag.rfind("--", 0) == 0) {
      if (auto n = diag::nearest(flag, long_flags(cmd))) {
        return msg + "; did you mean " + diag::in_quotes(*n) + "?";
      }
    }
    return msg + " (see hintkit " + (cmd == &cl.app ? "" : cmd->get_name() + " ") + "--help)";
  }
  return std::nullopt;
}

OptionSpec option_spec(const CommandLine& cl, const CLI::Option* o) {
  OptionSpec spec;
  if (o->nonpositional()) {
    for (const std::string& n : o->get_lnames()) spec.names.push_back("--" + n);
    for (const std::string& n : o->get_snames()) spec.names.push_back("-" + n);
  } else {
    spec.names.push_back(o->get_name());
  }
  spec.description = o->get_description();
  spec.default_value = o->get_default_str();
  spec.required = o->get_required();
  spec.repeatable = o->get_expected_max() > 1;
  if (o->get_items_expected_max() == 0) return spec;  // a flag
  auto kind = cl.kinds.find(o);
  spec.kind = kind == cl.kinds.end() ? ValueKind::kText : kind->second;
  if (auto c = cl.choices.find(o); c != cl.choices.end()) spec.choices = c->second;
  switch (spec.kind) {
    case ValueKind::kFile:
      spec.value_name = "FILE";
      break;
    case ValueKind::kDir:
      spec.value_name = "DIR";
      break;
    case ValueKind::kPath:
      spec.value_name = "PATH";
      break;
    default: {
      spec.value_name = o->nonpositional() ? o->get_lnames().front() : o->get_name();
      std::transform(spec.value_name.begin(), spec.value_name.end(), spec.value_name.begin(),
                     [](unsigned char c) { return c == '-' ? '_' : std::toupper(c); });
    }
  }
  return spec;
}

void add_options(const CommandLine& cl, const CLI::App* cmd, std::vector<OptionSpec>& options,
                 std::vector<OptionSpec>* positionals) {
  for (const CLI::Option* o : cmd->get_options()) {
    if (o == cmd->get_help_ptr()) continue;
    OptionSpec spec = option_spec(cl, o);
    if (!o->nonpositional()) {
      if (positionals) positionals->push_back(std::move(spec));
      continue;
    }
    options.push_back(std::move(spec));
  }
}

// ytt's flags as `values` takes them, for completion: files for -f and the data values file.
std::vector<OptionSpec> values_options() {
  std::vector<OptionSpec> out;
  for (const ytt::FlagName& f : ytt::implemented_flags()) {
    OptionSpec spec;
    spec.names.push_back("--" + f.name);
    if (f.shorthand) spec.names.push_back(std::string("-") + f.shorthand);
    if (f.takes_value) {
      spec.kind = ValueKind::kText;
      spec.value_name = "VALUE";
      if (f.name == "file" || f.name == "data-values-file" ||
          f.name == "allow-symlink-destination") {
        spec.kind = ValueKind::kPath;
        spec.value_name = "PATH";
      } else if (f.name == "output") {
        spec.kind = ValueKind::kChoice;
        spec.choices = {"yaml", "json", "openapi-v3"};
      }
    }
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

CliSpec cli_spec() {
  CommandLine cl;
  CliSpec spec;
  spec.name = "hintkit";
  spec.version = version();
  spec.description = cl.app.get_description();
  add_options(cl, &cl.app, spec.global, nullptr);
  for (const CLI::App* sub : std::as_const(cl.app).get_subcommands({})) {
    if (!visible(sub)) continue;
    CommandSpec c;
    c.name = sub->get_name();
    c.summary = sub->get_description();
    c.footer = sub->get_footer();
    if (sub == cl.values_cmd) {
      c.passes_arguments_through = true;
      c.options = values_options();
      c.footer = values_help();
    } else {
      add_options(cl, sub, c.options, &c.positionals);
    }
    spec.commands.push_back(std::move(c));
  }
  return spec;
}

int run(const std::vector<std::string>& args, Io io) {
  // `values` parses ytt's flags itself: building the other commands' parser first cost more
  // than a small values run's own argument handling.
  if (args.size() > 1 && args[1] == "values") {
    return run_values(std::vector<std::string>(args.begin() + 2, args.end()), io);
  }
  CommandLine cl;
  std::vector<std::string> rest(args.size() > 1 ? args.begin() + 1 : args.end(), args.end());
  if (auto unknown = unknown_command(cl, rest)) return fail(io, *unknown);
  std::reverse(rest.begin(), rest.end());  // CLI11 consumes a reversed vector
  try {
    cl.app.parse(rest);
  } catch (const CLI::ParseError& e) {
    // An unknown flag explains most errors after it ("A subcommand is required" after
    // `hintkit --verison`), so it is named first. --help and --version exit with 0.
    if (e.get_exit_code() != 0) {
      if (auto unknown = unknown_flag(cl)) return fail(io, *unknown);
    }
    std::ostringstream out, err;
    int code = cl.app.exit(e, out, err);
    io.out << out.str();
    io.err << err.str();
    // --help and --version are successes; everything else is a usage error.
    return code == 0 ? kExitClean : kExitUsage;
  }
  parse_color_mode(cl.color, io.color);  // the validator let only the three names through

  if (cl.lint_cmd->parsed()) {
    LintOptions& lint = cl.lint;
    lint.paths.insert(lint.paths.end(), cl.lint_files.begin(), cl.lint_files.end());
    return lint.config.empty() ? run_lint(lint, io) : run_lint_config(lint, io);
  }
  if (cl.hook_cmd->parsed()) {
    cl.hook.values_json_given = cl.json_opt->count() > 0;
    return run_hook(cl.hook, io);
  }
  if (cl.resolve_cmd->parsed()) {
    const ResolveOptions& resolve = cl.resolve;
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
  if (cl.describe_cmd->parsed()) {
    if (!cl.describe_file.empty()) cl.describe.target = cl.describe_file;
    if (cl.describe.target.empty()) {
      return fail(io, "describe: give a helmfile folder or hint file (see hintkit describe --help)");
    }
    return run_describe(cl.describe, io);
  }
  if (cl.schema_cmd->parsed()) return run_schema(cl.schema_kind, io);
  if (cl.lsp_cmd->parsed()) return lsp::serve(0, 1);
  if (cl.version_cmd->parsed()) {
    io.out << "hintkit " << version() << '\n';
    return kExitClean;
  }
  if (cl.completion_cmd->parsed()) {
    write_completion(io.out, cli_spec(), cl.shell);  // the validator let only known shells in
    return kExitClean;
  }
  if (cl.man_cmd->parsed()) {
    write_man_page(io.out, cli_spec());
    return kExitClean;
  }
  return fail(io, "no command given (see hintkit --help)");
}

}  // namespace hintkit::plugin
