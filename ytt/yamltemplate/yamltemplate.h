// yamltemplate: ytt's pkg/yamltemplate. A YAML file is read as ytt reads it (`load_yaml`,
// possibly ahead of time on another thread); a template's `#@` lines and `key: #@ expr` values
// compile to one Starlark program of ytt/template whose run builds the documents
// (`eval_template`, template.cpp: start there). Files whose only annotations are data
// annotations (`@schema/*`, `@data/*`, `@overlay/*`) skip the program: their tree is built
// straight from the YAML (fast_path.cpp). Strings under `@yaml/text-templated-strings` compile
// with ytt/texttemplate.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ytt/files/files.h"
#include "ytt/template/template.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

struct LoadedYaml {
  std::string path;
  std::vector<yaml::Document> docs;
  diag::Diagnostics diags;
  bool has_marker = true;  // the text holds "#@" somewhere (else no node can be templated)
  // The text holds a '#' that is neither "#@" nor "#!" (else no node has a plain comment).
  bool has_plain_hash = true;
  // Some map key is a map or array (`? [a]`, `{a: 1}: b`): templating such a file crashes
  // ytt, and a plain file's array key ytt prints with its array items' Go fields; both are
  // refused. Found before `roots` takes the trees.
  bool has_collection_key = false;
  bool has_array_key = false;
  // Document roots already converted to engine nodes (by index of `docs`; null where not).
  // A file whose only annotations are argument-less data annotations on its documents is
  // plain YAML below them (a large data values file): it is converted where it was loaded,
  // so its YAML tree is gone before the schema is built. Such a root keeps its kind and span
  // but not its children.
  std::vector<DPtr> roots;
};

// Whether some map key in `n` holds an array (`? [a]`, `{[a]: b}`, `{a: [1]}: b`): ytt writes
// such a key with its array items' Go fields (`- value: a` / `line: 1`), so it is refused.
bool has_array_in_key(const yaml::Node& n);
// How ytt's YAML reader (its fork of go-yaml v2) reads every file, fragment and value;
// `strict`: ytt's strict YAML (yaml::LoadOptions::strict).
yaml::LoadOptions ytt_yaml_options(bool strict = false);

// Loads one file's YAML. Touches nothing shared, so it may run on another thread.
// `split`: a long stream may be read in two halves on two threads (yaml::load_split), for a
// caller with no other thread at work; `after_split` runs once the second half is back.
LoadedYaml load_yaml(std::string path, std::string_view text, bool strict = false,
                     bool split = false, const std::function<void()>& after_split = {});
// ytt's HasTemplating: some `#@` comment in the file (else ytt takes it as plain YAML).
bool is_templated(const LoadedYaml& y);

// Evaluates `file` as a ytt template (from `loaded` when its YAML was loaded ahead of time).
// On a YAML or Starlark failure throws TemplateError.
std::vector<DDoc> eval_template(Files& files, const SourceFile& file, sl::Thread& thread,
                                std::optional<LoadedYaml> loaded = std::nullopt);

// ---- Inside yamltemplate ---------------------------------------------------------------------

// Whether an annotation is one the fast path evaluates (`@schema/*`, `@data/*`, `@overlay/*`).
bool data_annotation(std::string_view name);
// True when `text` writes `#@` no more often than `docs` carry annotations of their own: each
// annotation is one `#@` comment, so then no node below a document holds one.
bool annotations_only_on_documents(const std::vector<yaml::Document>& docs, std::string_view text);
// A map key written as a map or array (`{a: 1}: x`, `? [a]`) somewhere in `n`.
bool has_collection_key(const yaml::Node& n);
// The fast path: `docs` evaluated without the generated program, or nullopt when the file
// needs it (`docs` are then left as they were; otherwise their nodes move into the result).
// `roots`: documents converted ahead of time (LoadedYaml::roots), taken as they are.
std::optional<std::vector<DDoc>> build_without_program(const SourceFile& file, sl::Thread& thread,
                                                       std::vector<yaml::Document>& docs,
                                                       std::vector<DPtr>& roots);

}  // namespace hintkit::ytt
