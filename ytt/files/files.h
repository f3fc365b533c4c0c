// files: the input files as ytt's pkg/files sees them. Start at `read_file_set` (the -f
// arguments as files named by their relative paths, in ytt's order) and `Files` (what a run's
// templates share: the file set, caches of compiled templates and evaluated modules, the data
// values once final). The rest answers what a file is (template, library, data) and finds files
// the way `load()`, `data.read()` and `data.list()` do: relative to the folder of the file that
// asks, or from the root of the file set for paths starting with '/'; and names a position's file
// in errors as ytt does.
// files.cpp: `Files`, source lines, excerpts and positions; file_set.cpp: reading and finding.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

// A file's lines for error excerpts: one copy of the text and where each line starts and
// ends (a vector of strings costs a heap block per long line of a large values file).
class SourceLines {
 public:
  SourceLines() = default;
  // Splits at '\n'; a last line without a newline counts when it is not empty.
  explicit SourceLines(std::string text);
  // Exactly one line, whatever it holds.
  static SourceLines one(std::string line);

  size_t size() const { return starts_.size(); }
  std::string_view operator[](size_t i) const {
    const size_t end = i + 1 < starts_.size() ? starts_[i + 1] - 1 : last_end_;
    return std::string_view(*text_).substr(starts_[i], end - starts_[i]);
  }
  // The whole text. It lives on the heap, so views of it stay valid when this moves.
  const std::string& text() const { return *text_; }

 private:
  std::shared_ptr<const std::string> text_ = std::make_shared<const std::string>();
  // Where each line starts in text_ (a line ends at the '\n' before the next one's start);
  // the last line ends at `last_end_`.
  std::vector<uint32_t> starts_;
  uint32_t last_end_ = 0;
};

// A file's kind by its extension, as ytt's files.File.Type() (a file mark may say otherwise).
enum class FileType { kYaml, kStarlark, kText, kUnknown };

struct SourceFile {
  std::string path;          // as given
  std::string label;         // how error excerpts name it; empty: the path
  SourceLines lines;         // the text, by lines for error excerpts
  bool in_file_set = false;  // an -f input (not a flag's value): load() and data.read see it
  // Set by `--file-mark PATH:type=...|for-output=true|exclusive-for-output=true` (ytt's
  // MarkType, MarkTemplate, MarkForOutput); unset, the name decides (`file_type`).
  std::optional<FileType> marked_type;
  std::optional<bool> marked_template;
  std::optional<bool> marked_for_output;
  // A symlinked input whose destination could not be read ("open x.yml: no such file or
  // directory"): ytt reads a file only when it needs its text, and fails there with this
  // text, so an unread one (excluded by a file mark, of no known type) is no error. `lines`
  // is then empty; `readable_text()` throws it as a YttError.
  std::string read_error;
  const std::string& text() const { return lines.text(); }
  const std::string& readable_text() const;
};

struct CompiledTemplate;  // ytt/template/template.h: a template compiled to a Starlark program

struct Library;  // file_set.cpp: a folder of the file set as a library
// The library tree of a Files' file set (file_set.cpp), kept between lookups: `files` and
// `private_libraries` are how many of each it was built from or checked against.
struct LibraryTreeCache {
  std::shared_ptr<const Library> root;
  size_t files = 0;
  size_t private_libraries = 0;
};

// Everything the templates share: the input files, module cache, data.values.
class Files {
 public:
  // Marks `path` as running for the scope's lifetime (`running`, `running_data_values`).
  class Running {
   public:
    Running(Files& files, const std::string& path) : files_(files) {
      files_.running.push_back(path);
      files_.running_data_values.emplace_back();
    }
    ~Running() {
      files_.running.pop_back();
      files_.running_data_values.pop_back();
    }
    Running(const Running&) = delete;
    Running& operator=(const Running&) = delete;

   private:
    Files& files_;
  };

  std::vector<SourceFile> files;
  // Folders of the file set named `_ytt_lib` (their files are left out): load() and
  // data.list meet them as private libraries.
  std::vector<std::string> private_libraries;
  // The folder of the library these files are evaluated for ("" for the root; else e.g.
  // "_ytt_lib/name"): paths starting with '/' are found from there.
  std::string library_root;
  // `@ytt:library` for a file in `folder` (set by the LibraryExecution running this library).
  std::function<sl::Value(const std::string& folder)> library_module;
  // load(), data.read() and data.list() find files through this.
  mutable LibraryTreeCache library_tree_cache;
  // A library's Files hold only the files of its folder; `find` and `line` (error excerpts)
  // look for other files, such as those of the caller's data values, in its caller's Files,
  // which outlive it.
  const Files* caller = nullptr;
  // How far `files` were searched for the text "assert/validate" (mentions_assert_validate):
  // each file is searched once per Files, not once per validation.
  struct TextScan {
    size_t checked = 0;
    bool found = false;
  };
  mutable TextScan assert_validate_scan;
  const SourceFile* find(std::string_view path) const;
  std::string line(std::string_view path, int line) const;
  // Set once data values are final (templates rendered afterwards can read them). As ytt's
  // NewDataModule does for each file it evaluates, every evaluation reads them as its own
  // Starlark value (`running_data_values`): freezing one module's globals, or appending to a
  // list in one, does not reach another.
  DPtr data_values;
  // The globals of each file's latest evaluation (how an evaluation hands its module to load();
  // not a cache: ytt evaluates a library file on every load).
  std::map<std::string, sl::Module> module_cache;
  std::map<std::string, sl::Program> star_programs;  // .star files compiled so far, by name
  int gutter_digits = 1;  // widest line number in the error being printed
  // Templates compiled so far, libraries' included (ytt numbers its instruction sets with one
  // process-wide counter): shared with the Files of every library evaluated.
  std::shared_ptr<int> templates_evaluated = std::make_shared<int>(0);
  // The files whose top level is running, innermost last: `load()` resolves paths from the
  // folder of the last one (load statements run only at a file's top level).
  std::vector<std::string> running;
  // data.values of each running evaluation (parallel to `running`), made on its first
  // `load("@ytt:data", ...)`: loads of the module within one evaluation share it.
  std::vector<std::optional<sl::Value>> running_data_values;
  // Set by a Starlark builtin that met an unsupported feature; its error then becomes
  // Unsupported (a builtin cannot throw through the interpreter).
  std::string unsupported;
  // Compiled templates by file name: errors show the generated line's source (or the line
  // itself, marked "(generated)").
  std::map<std::string, std::shared_ptr<const CompiledTemplate>> compiled;
  // `template.replace` of each YAML template by file name: as in ytt, the function a file
  // loads acts on that file's evaluation contexts (evaluation_ctx.cpp).
  std::map<std::string, sl::Value> template_replace;
  // --ignore-unknown-comments: templates skip plain `#` comments instead of rejecting them.
  bool ignore_unknown_comments = false;
  // --strict (or library.get(strict=...)): YAML files are read with ytt's strict YAML.
  bool strict_yaml = false;
  // --implicit-map-key-overrides (or library.get(implicit_map_key_overrides=...)): a template's
  // map item whose key is already in the map replaces it, as if annotated
  // `@yaml/map-key-override`.
  bool implicit_map_key_overrides = false;
  // Writes a warning to standard error, in order with print() output (set by the execution).
  std::function<void(const std::string&)> warn;
  bool math_warned = false;  // @ytt:math warns once per run
};

// A template file's YAML as loaded, before templating; its problems are reported (as ytt

// "schema.yaml:\n    |\n  4 | line\n    |\n" excerpt of the given lines.
std::string excerpt(const Files& files, const std::string& label, const std::string& file,
                    const std::vector<int>& lines);

// How ytt names the file of a position: a file's path or its label; a flag's text by the
// flag's label, empty for a value parsed from a flag (ytt parses it under no name).
std::string file_label(const Files& files, const diag::Span& s);
// ytt's Position.AsCompactString: "file:line", "line" when the file has no name, "?" unknown.
std::string compact_position(const Files& files, const diag::Span& s);
// A span as a Problem's place: the input's path and line; empty for a place that is no file
// (a flag's text, a value in memory, an unknown line).
ErrorPlace place_of(const Files& files, const diag::Span& s);

// By extension, as ytt's files.File.Type().
FileType file_type(std::string_view rel_path);
// `.star` files and `x.lib.yml`-style names: loadable with load(), never rendered.
bool is_library_file(std::string_view rel_path);
// YAML and text files that are not libraries: evaluated and rendered.
bool is_template_file(std::string_view rel_path);
// The same questions about a file of the set, whose file marks take precedence over its name
// (ytt's Type, IsLibrary, IsTemplate), and ytt's IsForOutput: whether its result is output
// (a template, or a non-template file that is neither a library nor data, e.g. yaml-plain).
FileType file_type(const SourceFile& f);
bool is_library_file(const SourceFile& f);
bool is_template_file(const SourceFile& f);
bool is_for_output(const SourceFile& f);
// Files below a `_ytt_lib` folder belong to private libraries: not part of the root file set.
bool is_in_private_library(std::string_view rel_path);

// Standard input is read at most once per run, as ytt's files.ReadStdin: the -f arguments and
// the data values flags of one run share one of these.
struct StdinUse {
  bool taken = false;
};
// A `-` met after standard input was read: ytt reports it where the file is read, with the
// name the file goes by (`stdin.yml`, or `name` of `name=-`).
struct StdinTaken {
  std::string name;
  static constexpr const char* kText =
      "Standard input has already been read, has the '-' argument been used in more than one "
      "flag?";
};

// How the inputs are read beyond ytt's rules (Options::unsaved_texts, regular_files_only).
struct ReadRules {
  const std::map<std::string, std::string>* unsaved_texts = nullptr;
  bool regular_only = false;
  // ytt's SymlinkAllowOpts (--dangerous-allow-all-symlink-destinations,
  // --allow-symlink-destination): which symlinked input files are read.
  bool allow_all_symlinks = false;
  const std::vector<std::string>* allowed_symlink_destinations = nullptr;
};

// The files one argument stands for (`path`, `name=path`, `-`, a folder), as ytt's
// files.NewSortedFilesFromPaths finds them: sorted by relative path; `folder` when the
// argument named one (a `name=` is then ignored). Throws YttError with ytt's wording for a
// malformed argument or a missing, irregular or disallowed file, StdinTaken for a second `-`.
// HTTP paths are the caller's to refuse.
struct FoundFiles {
  std::vector<SourceFile> files;
  bool folder = false;
};
FoundFiles find_files(const std::string& arg, StdinUse& stdin_use, const ReadRules& rules = {});

// The HTTP source a file argument (`path` or `name=path`) names, if it names one (an argument
// with two `=` names none: find_files reports it).
std::optional<std::string_view> url_of(std::string_view arg);

// ytt's File.IsImplied: found inside a subfolder of a folder argument rather than named.
bool is_implied(const FoundFiles& found, const SourceFile& f);

// Reads every -f argument as ytt does (see find_files), arguments in the order given. Throws
// as find_files does (a second `-` with ytt's text) and Unsupported for HTTP inputs.
std::vector<SourceFile> read_file_set(const std::vector<std::string>& args, StdinUse& stdin_use,
                                      const ReadRules& rules = {});

// ytt's --file-mark flags (pkg/cmd/template/file_marks.go), in order, on the files read:
// `PATTERN:exclude=true` drops the matching files, `PATTERN:path=NEW` renames them; PATTERN is
// a path where the first `**/*` spans folders and the first `*` one name. `type=` (yaml-template,
// yaml-plain, text-template, text-plain, starlark, data), `for-output=true` and
// `exclusive-for-output=true` set the SourceFile's marks. Throws YttError with ytt's wording
// (malformed mark, unknown key or value, a mark that matches no file).
void apply_file_marks(std::vector<SourceFile>& files, const std::vector<std::string>& marks);

// A file mark's PATTERN as ytt's fileMarkMatches reads it: ytt quotes the pattern for Go's
// regexp, turns its first `**/*` into `.+` (one or more characters but a newline) and then its
// first other `*` into `[^/]+` (one or more characters but '/'); the rest matches itself, the
// whole path from start to end, compared rune by rune as Go decodes UTF-8. Matched here by
// plain code, linear in the path and pattern: no backtracking, no size that can fail. A pattern
// that is not valid UTF-8 (ytt's regexp.MustCompile panics on it) is Unsupported.
class FileMarkPattern {
 public:
  explicit FileMarkPattern(std::string_view pattern);
  bool matches(std::string_view path) const;

 private:
  enum class Wild { kAny, kName };               // `.+`, `[^/]+`
  std::vector<std::vector<uint32_t>> literals_;  // one more than wilds_
  std::vector<Wild> wilds_;                      // at most two, in pattern order
};

// The folder part of a relative path ("" at the root).
std::string folder_of(std::string_view rel_path);

// ytt's FindAccessibleLibrary: the folder of private library `path` ("a" or "a/b") seen from
// folder `from` (its `_ytt_lib` child). On failure `error` gets ytt's text.
std::optional<std::string> find_accessible_library(const Files& files, std::string_view from,
                                                   std::string_view path, std::string& error);

// The file that `path` names, seen from folder `from` (see above). On failure, `error` gets
// ytt's text ("Expected to find file 'x' (hint: ...)") and the result is null.
const SourceFile* find_file_from(const Files& files, std::string_view from, std::string_view path,
                                 std::string& error);
// The files of the set below `folder` (private libraries' included), as indexes into
// `files.files` in file set order: what a library evaluated from that folder holds.
std::vector<size_t> files_below(const Files& files, std::string_view folder);
// `data.list(path)` from folder `from`: the accessible files below it, as ytt lists them.
std::vector<std::string> list_files_from(const Files& files, std::string_view from,
                                         std::string_view path, std::string& error);

}  // namespace hintkit::ytt
