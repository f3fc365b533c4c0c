// Internal: what each kind of document gets: diagnostics, hover, completion, code actions.
// Documents are classified by name (`tazuna.hint.yaml`, `tazuna.yaml`, the helmfile names
// tazuna renders) or, for ytt, by holding `#@data/values...` annotations. Every function is pure over the open documents
// (and the files on disk they refer to), so the server can call it from a timer.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace hintkit::lsp {

// kHelmfile: a helmfile tazuna may render with the vars of the hint in its folder
// (resolver::kHelmfileNames), checked as a template against that hint.
enum class DocKind { kHint, kConfig, kYtt, kHelmfile, kOther };

struct Document {
  std::string uri;
  std::string path;  // file system path of the uri ("" for non-file uris)
  std::string text;
  int version = 0;
  DocKind kind = DocKind::kOther;
};

// An LSP position: 0-based line and UTF-16 offset, each in 0..kMaxPosition (the server
// refuses any other before calling in here).
inline constexpr int kMaxPosition = 2147483647;  // LSP's uinteger: 2^31 - 1
struct Position {
  int line = 0;
  int character = 0;
};
struct Range {
  Position start, end;
};

DocKind classify(const std::string& path, const std::string& text);

// The text of an open document at `path`, if any (unsaved edits win over the disk).
using OpenText = std::function<const std::string*(const std::string& path)>;

// LSP Diagnostic[] for the document.
nlohmann::json diagnostics(const Document& doc, const OpenText& open);
// Hover contents (markdown) or null.
nlohmann::json hover(const Document& doc, int line, int character, const OpenText& open);
// CompletionItem[].
nlohmann::json completion(const Document& doc, int line, int character, const OpenText& open);
// CodeAction[] for the diagnostics on the lines `range` touches that offer a fix (a
// did-you-mean's name, HK114's quoting of a default).
nlohmann::json code_actions(const Document& doc, const Range& range, const OpenText& open);

// The replacement a did-you-mean hint offers (`did you mean "name"?`), if it offers one.
std::optional<std::string> did_you_mean(std::string_view hint);
// Where ytt's error text places an error in file `file_name` (a base name): the line of its
// first `name:LINE`, else of the first excerpt line (`  3 | ...`) after a `name:` line, else 1.
// Numbers too big for an int saturate; the caller clamps to the document.
int ytt_error_line(std::string_view message, std::string_view file_name);

std::string path_of_uri(const std::string& uri);
std::string uri_of_path(const std::string& path);

}  // namespace hintkit::lsp
