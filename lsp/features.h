// Internal: what each kind of document gets: diagnostics, hover, completion, code actions.
// Documents are classified by name (`tazuna.hint.yaml`, `tazuna.yaml`) or, for ytt, by
// holding `#@data/values...` annotations. Every function is pure over the open documents
// (and the files on disk they refer to), so the server can call it from a timer.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace hintkit::lsp {

enum class DocKind { kHint, kConfig, kYtt, kOther };

struct Document {
  std::string uri;
  std::string path;  // file system path of the uri ("" for non-file uris)
  std::string text;
  int version = 0;
  DocKind kind = DocKind::kOther;
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
// CodeAction[] for the did-you-mean diagnostics overlapping `range`.
nlohmann::json code_actions(const Document& doc, const nlohmann::json& range, const OpenText& open);

std::string path_of_uri(const std::string& uri);
std::string uri_of_path(const std::string& path);

}  // namespace hintkit::lsp
