// The ytt-compatible Data Values Schema engine behind `hintkit values`.
//
// `run(options)` does what `ytt -f ... --data-values-inspect` does: it templates every input
// file (`#@` code lines, `key: #@ expr`, `#@ def`/`#@ end` fragment functions, `#@ for`,
// `#@ if`, `#@ load`), merges the `#@data/values-schema` documents into one schema (types and
// defaults), overlays `#@data/values` documents and the `--data-value*` flags onto the
// defaults in ytt's fixed order, type-checks after every step, runs validations, then prints
// the data values (`--data-values-inspect`), the schema as OpenAPI
// (`--data-values-schema-inspect -o openapi-v3`) or the rendered templates. Output bytes,
// error text and exit codes follow ytt v0.48.0 (with `hintkit` in place of `ytt`).
//
// Text templates (`.txt`, `.lib.txt`) compile to Starlark the same way (template.cpp) and run
// in ytt's order with the YAML templates; their text goes to output files (`--output-files`,
// `--dangerous-emptied-output-directory`), else ytt's warning says it is not printed.
//
// Internals, one phase per file: template.cpp (YAML templates compiled to Starlark),
// ytt_modules.cpp (`@ytt:*`), overlay.cpp, infer.cpp (schema -> types + defaults; values
// type-checked by `types::check_each` in ytt's order, problems worded as ytt words them),
// data_values.cpp (flags), validate.cpp, inspect.cpp, engine.cpp (the pipeline), errors.cpp.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hintkit::schema {

// The flags ytt v0.48.0 accepts that this engine understands, as given on the command line.
struct Options {
  std::vector<std::string> files;       // -f, in order
  std::vector<std::string> file_marks;  // --file-mark PATH:KEY=VALUE, in order
  // Data value flags, each with its own position in ytt's fixed order of application.
  std::vector<std::string> data_values_files;     // --data-values-file
  std::vector<std::string> data_values_env;       // --data-values-env PREFIX
  std::vector<std::string> data_values_env_yaml;  // --data-values-env-yaml PREFIX
  std::vector<std::string> data_value;            // -v/--data-value key=value (string)
  std::vector<std::string> data_value_yaml;       // --data-value-yaml key=yaml
  std::vector<std::string> data_value_file;       // --data-value-file key=path
  bool inspect = false;                           // --data-values-inspect
  bool schema_inspect = false;                    // --data-values-schema-inspect
  std::string output;              // -o / --output file format: "", yaml, json (or an unknown type)
  bool output_openapi = false;     // -o / --output also names the schema type openapi-v3
  bool output_empty_type = false;  // -o listed an empty type first among unknown ones (`json,`)
  bool disable_validation = false;       // --dangerous-data-values-disable-validation
  bool ignore_unknown_comments = false;  // --ignore-unknown-comments: plain `#` comments allowed
  bool strict = false;  // -s/--strict: ytt's strict YAML for input files and YAML flag values
  // --output-files DIR, --dangerous-emptied-output-directory DIR (emptied first): write the
  // output files there instead of printing the documents.
  std::string output_files;
  std::string output_directory;
  // Environment for --data-values-env, as NAME=value strings (the process environment).
  std::vector<std::string> environment;
  // false: the run's trees are not freed but handed over in `Outcome::retained`. A process
  // that exits right after printing saves the time of freeing every node one by one (about a
  // tenth of a large run); the operating system takes the memory back at exit.
  bool free_at_end = true;
  // Runs once the thread that loads input files ahead has ended (the CLI lets mimalloc take
  // over that thread's memory, which it would otherwise reuse only some of the time).
  std::function<void()> after_loading_thread;
  // Budgets of the run's Starlark; 0 keeps the interpreter's own (starlark::kMaxSteps,
  // kMaxCallDepth), which let programs go as far as ytt's do. Hosts that run untrusted input
  // in bulk (the fuzz target) set smaller ones.
  int64_t max_starlark_steps = 0;
  int max_starlark_call_depth = 0;
  // For hosts that check files nobody named on a command line (the language server checks the
  // folder of an open document):
  // - texts read in place of the disk's, by input path as the -f argument (or a folder's walk:
  //   `folder/name`) spells it: an editor's unsaved documents. The path still passes every
  //   check a file on disk does (a symlink is refused as ever); one missing on disk is taken
  //   as it is (a new, unsaved document);
  // - regular files only: named pipes and devices among the inputs are refused
  //   (yaml::FileKinds::kRegularOnly), where the CLI reads them.
  std::map<std::string, std::string> unsaved_texts;
  bool regular_files_only = false;
};

// A place an error names: the input file's name as ytt's texts give it (an `-f` file's base
// name, a file of an `-f` folder by its path inside that folder) and the 1-based line.
// Unknown parts are empty / 0 (a value from a flag, from library.with_data_values).
struct ErrorPlace {
  std::string file;
  int line = 0;
};

// One problem of a failed run at its own place, for hosts that show problems where they are
// (the language server). Filled for the errors whose parts the engine holds: type errors of
// data values and of schemas (one per block of ytt's error) and validation failures (one per
// failing value); for any other error `Outcome::problems` is empty and `err` is all there is.
struct Problem {
  ErrorPlace place;
  std::string message;  // one line
  // Other places the error names, each with what it is (`type declared here`).
  std::vector<std::pair<ErrorPlace, std::string>> related = {};
};

struct Outcome {
  int exit_code = 0;
  std::string out;                 // stdout bytes
  std::string err;                 // stderr text after the program name, e.g. "Error: ..."
  std::shared_ptr<void> retained;  // with Options::free_at_end false: everything the run built
  std::vector<Problem> problems;   // the error's problems at their places (see Problem)
};

Outcome run(const Options& options);

// Parses ytt's command line (args after `values`) the way ytt's flag library does.
// On a usage problem returns an Outcome with its error; else fills `options`.
bool parse_args(const std::vector<std::string>& args, Options& options, Outcome& usage_error);

// Exit code of a run that asks for something of ytt's that hintkit does not do.
inline constexpr int kExitUnsupported = 2;
// "Error: hintkit values does not support <feature>; use ytt for this\n".
std::string unsupported_text(std::string_view feature);

}  // namespace hintkit::schema
