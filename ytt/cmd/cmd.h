// cmd: `hintkit values`, ytt's pkg/cmd/template. The front door of the ytt half: plugin/
// calls `parse_args` (ytt's flags) and `run` (engine.cpp), which does what `ytt -f ...` does:
// templates every input file, merges the `#@data/values-schema` documents into one schema,
// overlays `#@data/values` documents and the `--data-value*` flags onto its defaults in ytt's
// fixed order, type-checks after every step, runs validations, then prints the data values
// (`--data-values-inspect`), the schema as OpenAPI (`--data-values-schema-inspect -o
// openapi-v3`) or the rendered templates (to standard output or, with `--output-files` or
// `--dangerous-emptied-output-directory`, to files: output_dir.cpp). Output bytes, error text
// and exit codes follow ytt v0.48.0 (with `hintkit` in place of `ytt`). `hintkit values fmt`
// is ytt's `fmt` command (fmt.cpp over yamlfmt): YAML files printed again in ytt's layout.
//
// The modules below, bottom up: yamlmeta (the tree), files, template (YAML and text
// templates, Starlark values), overlay, yttlibrary (`@ytt:*`), validations, schema,
// workspace; docs/design.md walks a value through them.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

// ytt's commands this engine runs: its root (the template command) and `fmt`.
enum class Command { kTemplate, kFmt };

// The flags ytt v0.48.0 accepts that this engine understands, as given on the command line.
struct Options {
  Command command = Command::kTemplate;
  bool help = false;                    // -h, --help: the caller prints the command's help
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
  bool files_inspect = false;  // --files-inspect: print the root library's files and stop
  bool schema_inspect = false;                    // --data-values-schema-inspect
  std::string output;              // -o / --output file format: "", yaml, json (or an unknown type)
  bool output_openapi = false;     // -o / --output also names the schema type openapi-v3
  bool output_empty_type = false;  // -o listed an empty type first among unknown ones (`json,`)
  bool disable_validation = false;       // --dangerous-data-values-disable-validation
  bool ignore_unknown_comments = false;  // --ignore-unknown-comments: plain `#` comments allowed
  bool strict = false;  // -s/--strict: ytt's strict YAML for input files and YAML flag values
  // --implicit-map-key-overrides: a template's repeated map key replaces the earlier item.
  bool implicit_map_key_overrides = false;
  // --output-files DIR, --dangerous-emptied-output-directory DIR (emptied first): write the
  // output files there instead of printing the documents.
  std::string output_files;
  std::string output_directory;
  // --bulk-in JSON: the input files as ytt's bulk format ({"files": [{"name", "data"}]}), in
  // place of -f (when not empty); --bulk-out: the output files, or the error, printed as one
  // JSON text of that format (exit 0), in place of the documents.
  std::string bulk_in;
  bool bulk_out = false;
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
  //   (fileio::FileKinds::kRegularOnly), where the CLI reads them.
  // --dangerous-allow-all-symlink-destinations, --allow-symlink-destination (ytt's
  // SymlinkAllowOpts): symlinked input files are read when allowed, else refused with ytt's
  // error.
  bool allow_all_symlinks = false;
  std::vector<std::string> allowed_symlink_destinations;
  std::map<std::string, std::string> unsaved_texts;
  bool regular_files_only = false;
};

struct Outcome {
  int exit_code = 0;
  std::string out;                 // stdout bytes
  std::string err;                 // stderr text after the program name, e.g. "Error: ..."
  std::shared_ptr<void> retained;  // with Options::free_at_end false: everything the run built
  std::vector<Problem> problems;   // the error's problems at their places (see Problem)
};

// Runs the command `options.command` names.
Outcome run(const Options& options);

// Parses ytt's command line (args after `values`) the way ytt's flag library does.
// On a usage problem returns an Outcome with its error; else fills `options`.
bool parse_args(const std::vector<std::string>& args, Options& options, Outcome& usage_error);

// Exit code of a run that asks for something of ytt's that hintkit does not do.
inline constexpr int kExitUnsupported = 2;
// "Error: hintkit values does not support <feature>; use ytt for this\n".
std::string unsupported_text(std::string_view feature);

// The names of the ytt flags `hintkit values` implements (args.cpp), for the CLI's shell
// completion.
struct FlagName {
  std::string name;    // "data-values-file"
  char shorthand = 0;  // 'f', or 0
  bool takes_value = false;
};

// Refused flags are left out: completion offers only what works.
std::vector<FlagName> implemented_flags();

// ---- Inside the command -------------------------------------------------------------------

// ytt's `fmt` command (fmt.cpp), which `run` hands Command::kFmt.
Outcome run_fmt(const Options& options);

class LibraryExecution;
struct ValuesSource;
struct StdinUse;
// ytt's DataValuesFlags.AsOverlays (data_values_flags.cpp): the data values flags as documents,
// files, then env variables, then key=value flags, then key=file flags; their texts become
// pseudo files of `root`, and values addressed to a library go to it.
std::vector<ValuesSource> data_values_flag_sources(const Options& opts, LibraryExecution& root,
                                                   StdinUse& stdin_use);

// ---- Bulk input and output (ytt's BulkFilesSource, bulk.cpp) ---------------------------------

// One output file: its path relative to the output folder, and its bytes.
using OutputFile = std::pair<std::string, std::string>;

struct SourceFile;  // ytt/files/files.h
// The files of `--bulk-in`'s JSON, read as Go's json.Unmarshal stores it into ytt's BulkFiles,
// as input files in their order. Throws YttError with Go's error text.
std::vector<SourceFile> read_bulk_input(std::string_view json);
// `--bulk-out`: json.Marshal of ytt's BulkFiles holding `files` and `error` (no newline).
std::string bulk_output(const std::vector<OutputFile>& files, std::string_view error);

// ---- Output folders (ytt's files.OutputDirectory) ------------------------------------------

// ytt's files.OutputDirectory (output_dir.cpp): `--output-files DIR` and
// `--dangerous-emptied-output-directory DIR` write each output file below DIR; the second
// first checks the paths and empties DIR with Go's os.RemoveAll.
//
// The Go calls ytt makes (os.RemoveAll, os.MkdirAll, os.OpenFile) are ported over folder
// descriptors: every folder is opened with O_DIRECTORY|O_NOFOLLOW from its parent's descriptor,
// so a folder swapped for a symbolic link while hintkit runs is never followed. Where ytt would
// follow a symbolic link that is already there (a folder of DIR's path, a file being replaced),
// hintkit refuses (exit 2) instead, before writing through it. Modes are ytt's: 0700 for new
// folders and files.

// Writes `files` below `dir` as ytt's OutputDirectory.Write (`emptied`) or WriteFiles does,
// appending "creating: PATH\n" to `printed` before each file is created. Throws YttError with
// Go's error text (exit 1), or Unsupported for a symbolic link on the way (exit 2).
void write_output_directory(const std::string& dir, const std::vector<OutputFile>& files,
                            bool emptied, std::string& printed);

// Go's os.RemoveAll(path) (removeall_at.go), relative to descriptors; exposed for tests.
// Throws as write_output_directory does. Refuses to empty the root folder.
void go_remove_all(const std::string& path);

}  // namespace hintkit::ytt
