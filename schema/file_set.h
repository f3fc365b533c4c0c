// Internal: the input file set as ytt's pkg/files and pkg/workspace see it. `read_file_set`
// turns the -f arguments into files named by their relative paths, in ytt's order; the rest
// answers what a file is (template, library, data) and finds files the way `load()`,
// `data.read()` and `data.list()` do: relative to the folder of the file that asks, or from
// the root of the file set for paths starting with '/'.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema/internal.h"

namespace hintkit::schema {

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

}  // namespace hintkit::schema
